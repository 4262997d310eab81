/** The one HTTP client for outbound calls (SMS provider, webhooks): JSON POST with a time limit. */
export interface OutboundResponse {
  status: number;
  body: string;
}

export class OutboundError extends Error {
  override name = 'OutboundError';
  constructor(
    message: string,
    /** The peer answered and refused (a status it gave): what was sent was certainly not taken. */
    readonly refused = false,
  ) {
    super(message);
  }
}

export async function postJson(
  url: string,
  body: unknown,
  opts: { headers?: Record<string, string>; timeoutMs?: number } = {},
): Promise<OutboundResponse> {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'user-agent': 'ActionDesk', ...opts.headers },
      body: JSON.stringify(body),
      redirect: 'error',
      signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
    });
  } catch (err) {
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    throw new OutboundError(
      `POST ${new URL(url).origin} failed: ${cause?.code ?? cause?.message ?? (err as Error).message}`,
    );
  }
  // Keep only the start of what the peer says, for error messages.
  const text = (await res.text().catch(() => '')).slice(0, 500);
  return { status: res.status, body: text };
}
