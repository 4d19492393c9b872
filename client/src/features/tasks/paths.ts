/** Forms' and tasks' paths (spec 000 §2: /app/tasks, /app/tasks/{id}/designer; the asset's booklet). */
export const taskPaths = {
  list: () => '/app/tasks',
  designer: (formId: string) => `/app/tasks/${encodeURIComponent(formId)}/designer`,
  booklet: (assetId: string) => `/app/devices/${encodeURIComponent(assetId)}/servicebooklet`,
  /** Filling in a form on an asset (for a task, when given). */
  fill: (assetId: string, formId: string, taskId?: string | null) =>
    `/app/devices/${encodeURIComponent(assetId)}/servicebooklet/fill/${encodeURIComponent(formId)}${
      taskId === undefined || taskId === null ? '' : `/${encodeURIComponent(taskId)}`
    }`,
};

/** Who sees the forms and tasks (menu entry and routes). */
export const TASKS_REQUIREMENT = { permission: 'form::view' } as const;
