/**
 * HTTP Basic client credentials. RFC 6749 §2.3.1 form-encodes the id and the secret inside them (strict
 * clients such as openid-client send `adc%5F…`), so both are decoded.
 */
export function basicCredentials(header: string | undefined): { id: string; secret: string } | undefined {
  const m = /^Basic[ ]+([A-Za-z0-9+/=]+)[ ]*$/i.exec(header ?? '');
  if (!m) return undefined;
  const text = Buffer.from(m[1] as string, 'base64').toString('utf8');
  const colon = text.indexOf(':');
  if (colon < 0) return undefined;
  try {
    const decode = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: decode(text.slice(0, colon)), secret: decode(text.slice(colon + 1)) };
  } catch {
    return undefined;
  }
}
