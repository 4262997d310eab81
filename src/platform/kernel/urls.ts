/** Host names of the loopback address (RFC 8252 §7.3, §8.3). */
export const LOOPBACK_HOSTS: ReadonlySet<string> = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * The URL, if the text is an absolute https URL, or an http one on the loopback address (a native app's
 * redirect, a provider run by a test); otherwise undefined.
 */
export function secureOrLoopbackUrl(value: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.protocol === 'https:') return url;
  return url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) ? url : undefined;
}
