/** A Host header's name: lower case, without its port and a final dot ('' when none). */
export function hostName(hostHeader: string | undefined): string {
  if (hostHeader === undefined) return '';
  return hostHeader.trim().toLowerCase().replace(/:\d+$/, '').replace(/\.$/, '');
}
