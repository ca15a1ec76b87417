/** Names a browser on this machine uses for the API; anything else may be a DNS-rebinding attack. */
const LOCAL_HOSTNAMES = new Set(['localhost', '127.0.0.1', '[::1]']);

export function isLocalHost(hostHeader: string | undefined): boolean {
  if (!hostHeader) return false;
  const host = hostHeader.trim().toLowerCase();
  const hostname = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : (host.split(':')[0] ?? '');
  const port = host.slice(hostname.length);
  if (port !== '' && !/^:\d{1,5}$/.test(port)) return false;
  return LOCAL_HOSTNAMES.has(hostname);
}
