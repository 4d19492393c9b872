/** Service requests' paths (spec 000 §2: /app/service, its history, one request's details). */
export const servicePaths = {
  active: () => '/app/service',
  history: () => '/app/service/history',
  request: (id: string) => `/app/service/${encodeURIComponent(id)}/details`,
};
