import { randomBytes } from 'node:crypto';
import type { NextFunction, Request, RequestHandler, Response, Router } from 'express';
import type { z } from '../kernel/zod';
import { credentialParamsOf, declareRoute, redactValue } from '../ops/redaction';
import './request';
import { type Credential, type RequestContext, servingRequest } from '../kernel/context';
import { AppError } from '../kernel/errors';
import type { Permission } from '../kernel/permissions';
import { nonceOf, pageHeaders } from '../web/headers';
import type { AuthGate } from './auth';
import { SessionEnded } from './auth-session';
import { settleError } from './error-handler';
import { type Idempotency, idempotencyKeyOf } from './idempotency';
import { liveOnlyGuard, withLiveOnlyNote } from './live-only';
import type { OpenAPIRegistry } from './openapi';
import { assertPlainInput } from './plain-input';
import type { AddressLimit, RateLimits } from './rate-limit';
import { documentFormEndpoint, documentPage, documentRoute, takesIdempotencyKey } from './route-docs';
import {
  bodyRequired,
  formParser,
  NO_BODY,
  originOf,
  parse,
  parseQuery,
  requireJsonBody,
  strictQuery,
} from './route-input';
import type {
  AnySchema,
  FormEndpointSpec,
  HandlerInput,
  Output,
  PageInput,
  PageResult,
  PageSpec,
  RouteSpec,
  WebKit,
} from './route-spec';
import { SECRET_ALREADY_SHOWN, shownOnceFields } from './shown-once';

export type { Audience, PageInput, PageResult, PageSpec, WebKit } from './route-spec';

/** An OAuth endpoint's JSON answer: never cached (RFC 6749 §5.1). */
function sendOAuthJson(res: Response, status: number, body: unknown, headers: Record<string, string> = {}) {
  res.status(status);
  for (const [name, value] of Object.entries(headers)) res.setHeader(name, value);
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('Pragma', 'no-cache');
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.end(JSON.stringify(body));
}

/**
 * Declares routes once: the Express pipeline (authenticate → validate → handler → JSON) and the
 * OpenAPI registration come from the same spec, so a documented route always exists and vice versa.
 */
export class Routes {
  constructor(
    private readonly router: Router,
    private readonly registry: OpenAPIRegistry,
    private readonly gate: AuthGate,
    private readonly basePath: string,
    /** Parses JSON bodies; mounted only on routes that take one. */
    private readonly bodyParser: RequestHandler,
    /** When set (tests), every response body is parsed with its schema: contract drift fails loudly. */
    private readonly checkResponses = false,
    /** Browser plumbing for pages (CSRF guards, where to sign in). */
    private readonly web?: WebKit,
    /** The rate limits; none when absent (a router built for a tool). */
    private readonly limits?: RateLimits,
    /** Stored answers of POSTs sent with an Idempotency-Key. */
    private readonly idempotency?: Idempotency,
  ) {}

  /**
   * Names the route for the metrics (`res.locals.route`): its documented path, such as
   * /api/v1/customers/{customerId}. The route is declared to the redaction (redaction.ts): the path
   * parameters its schema declares credentials are never logged, the URL's nor their values anywhere.
   */
  private named(method: string, path: string, params?: AnySchema): RequestHandler {
    const route = `${this.basePath}${path}`;
    const credentials = credentialParamsOf(params);
    declareRoute(method, route, credentials);
    return (req, res, next) => {
      res.locals.route = route;
      for (const name of credentials.keys()) redactValue(req.params[name]);
      next();
    };
  }

  /** The per-address limiter of a route without credentials, if any. */
  private byAddress(limit: AddressLimit | false | undefined): RequestHandler[] {
    if (!this.limits || limit === false) return [];
    return [this.limits.address(limit ?? 'public')];
  }

  /** An authenticated route requiring `permission`; the handler receives the request context. */
  add<
    P extends AnySchema = z.ZodNever,
    Q extends AnySchema = z.ZodNever,
    B extends AnySchema = z.ZodNever,
    R extends AnySchema = z.ZodNever,
  >(
    spec: RouteSpec<P, Q, B, R> & {
      permission: Permission;
      /** The credentials it takes (default: the API key); browser sessions must also send the CSRF token. */
      accepts?: Credential[];
      /**
       * Refused to test credentials (test mode, issue 31), saying what is managed in live mode: staff users
       * and sign-in, which a test organisation shares with its live one.
       */
      liveOnly?: string;
    },
    handler: (input: HandlerInput<P, Q, B> & { ctx: RequestContext }) => Promise<Output<R>>,
  ): void {
    const gate = this.gate.require(spec.permission, spec.accepts);
    const before = this.limits ? [this.limits.unauthenticated(gate), this.limits.caller()] : [gate];
    const { liveOnly } = spec;
    if (liveOnly) before.push(liveOnlyGuard(liveOnly));
    const documented = liveOnly ? withLiveOnlyNote(spec, liveOnly) : spec;
    this.mount(documented, before, (input) => handler({ ...input, ctx: input.req.ctx as RequestContext }));
  }

  /** A route without authentication (health, the OpenAPI document). */
  public<
    P extends AnySchema = z.ZodNever,
    Q extends AnySchema = z.ZodNever,
    B extends AnySchema = z.ZodNever,
    R extends AnySchema = z.ZodNever,
  >(spec: RouteSpec<P, Q, B, R>, handler: (input: HandlerInput<P, Q, B>) => Promise<Output<R>>): void {
    this.mount(spec, this.byAddress(spec.rateLimit), handler);
  }

  /**
   * A machine endpoint that takes a form-urlencoded body and answers JSON with its own status and
   * headers (the OAuth token endpoint: RFC 6749 fixes the body type and the error shape). No CSRF (no
   * cookies are read) and no authentication here: the handler authenticates the client itself.
   */
  formEndpoint<F extends AnySchema>(
    spec: FormEndpointSpec<F>,
    handler: (input: {
      form: z.output<F>;
      req: Request;
      res: Response;
    }) => Promise<{ status: number; body: unknown; headers?: Record<string, string> }>,
  ): void {
    documentFormEndpoint(this.registry, this.basePath, spec);
    this.router.post(
      spec.path,
      this.named('post', spec.path),
      ...this.byAddress(spec.rateLimit),
      formParser,
      async (req: Request, res: Response) => {
        // Plain data first (parse checks it), then the endpoint's lenient schema.
        const form = parse(spec.fields, req.body ?? {}, 'body') as z.output<F>;
        const answer = await servingRequest(originOf(req), () => handler({ form, req, res }));
        const body =
          answer.status >= 400 && answer.body && typeof answer.body === 'object'
            ? { ...answer.body, requestId: req.id }
            : answer.body;
        sendOAuthJson(res, answer.status, body, answer.headers);
      },
      // Whatever fails before or around the handler (an unreadable or hostile body, a NUL, a rate
      // limit, an outage) is answered in the endpoint's RFC 6749 shape, not the API's.
      (err: unknown, req: Request, res: Response, _next: NextFunction) => {
        const error = settleError(err, req, res);
        if (!error) return;
        const code =
          error.status === 429 || error.status === 503
            ? 'temporarily_unavailable'
            : error.status >= 500
              ? 'server_error'
              : 'invalid_request';
        const detail = error.details?.[0];
        sendOAuthJson(res, error.status, {
          success: false,
          error: code,
          error_description: detail ? `${error.message} (${detail.field}: ${detail.message})` : error.message,
          code: error.status,
          requestId: req.id,
        });
      },
    );
  }

  /**
   * A server-rendered page (GET) or form target (POST, urlencoded) that anyone may open: the contact's
   * pages (their action code is their credential, checked by the handler) and the staff pages before
   * sign-in. See `mountPage` for what every page gets.
   */
  page<P extends AnySchema, Q extends AnySchema = z.ZodNever, F extends AnySchema = z.ZodNever>(
    spec: PageSpec<P, Q, F>,
    handler: (input: PageInput<P, Q, F>) => Promise<PageResult>,
  ): void {
    this.mountPage(spec, this.byAddress(spec.rateLimit), async (input) => handler(input));
  }

  /**
   * A staff page: needs a signed-in staff browser session (not an API key) with `permission`. A browser
   * that is not signed in (or whose session just ended) is sent to the sign-in page, which brings it back
   * here afterwards; a user without the permission gets the 403 page.
   */
  staffPage<P extends AnySchema, Q extends AnySchema = z.ZodNever, F extends AnySchema = z.ZodNever>(
    spec: PageSpec<P, Q, F> & { permission: Permission },
    handler: (input: PageInput<P, Q, F> & { ctx: RequestContext }) => Promise<PageResult>,
  ): void {
    this.mountPage({ ...spec, audience: 'staff' }, this.byAddress(spec.rateLimit ?? false), async (input) => {
      let ctx: RequestContext;
      try {
        ctx = await this.gate.contextOf(input.req, spec.permission, ['session']);
      } catch (err) {
        if (!(err instanceof AppError) || err.status !== 401) throw err;
        const back = input.req.method === 'GET' ? input.req.originalUrl : '';
        const signIn = this.web?.signInPath ?? '/signin';
        const query = new URLSearchParams();
        if (back) query.set('next', back);
        if (err instanceof SessionEnded) query.set('ended', err.reason);
        return { redirect: query.size ? `${signIn}?${query}` : signIn };
      }
      return handler({ ...input, ctx });
    });
  }

  /**
   * Every page: helmet's security headers with the strict content security policy (scripts only with
   * the response's nonce), never cached or indexed; path, query (unknown parameters ignored: mail
   * clients add their own) and form fields validated with zod and checked to be plain data; on a POST
   * the audience's CSRF token is checked before the handler runs. Errors are answered as HTML pages.
   */
  private mountPage<P extends AnySchema, Q extends AnySchema, F extends AnySchema>(
    spec: PageSpec<P, Q, F>,
    limited: RequestHandler[],
    handler: (input: PageInput<P, Q, F>) => Promise<PageResult>,
  ): void {
    const method = spec.method ?? 'get';
    documentPage(
      this.registry,
      this.basePath,
      spec as PageSpec<AnySchema, AnySchema, AnySchema>,
      limited.length > 0,
    );
    const expressPath = spec.path.replace(/\{(\w+)\}/g, ':$1');
    const csrf = this.web?.csrf[spec.audience];
    const before =
      method === 'post' && !spec.upload ? [pageHeaders, ...limited, formParser] : [pageHeaders, ...limited];
    this.router[method](
      expressPath,
      this.named(method, spec.path, spec.params),
      ...before,
      async (req: Request, res: Response) => {
        const params = (spec.params ? parse(spec.params, req.params, 'path') : {}) as z.output<P>;
        // Form fields and query parameters are plain data too (no __proto__, NUL, lone surrogates).
        assertPlainInput(req.query, 'query');
        const query = (spec.query ? parse(spec.query, req.query, 'query') : {}) as z.output<Q>;
        let form = {} as z.output<F>;
        if (method === 'post') assertPlainInput(req.body ?? {}, 'body');
        if (method === 'post' || spec.csrfOnGet) {
          if (csrf && !csrf.valid(req)) {
            // Within the request's origin, so the page can speak the browser's language.
            const refused = servingRequest(originOf(req), () => spec.csrfFailed?.()) ?? {
              status: 403,
              html: spec.errorPage(403, 'This form has expired. Go back, reload the page and try again.', {
                languages: originOf(req).languages ?? [],
                expired: true,
              }),
            };
            sendPage(res, refused.status, refused.html);
            return;
          }
        }
        if (method === 'post' && spec.form) form = parse(spec.form, req.body ?? {}, 'body') as z.output<F>;
        const page = await servingRequest(originOf(req), () =>
          handler({
            params,
            query,
            form,
            req,
            res,
            nonce: nonceOf(res),
            csrf: () => csrf?.token(req, res) ?? '',
          }),
        );
        if ('redirect' in page) {
          res.redirect(303, page.redirect);
          return;
        }
        sendPage(res, page.status, withFormGuard(page.html, nonceOf(res)));
      },
      // A page answers in HTML, its errors too (a contact should never see a JSON error body).
      (err: unknown, req: Request, res: Response, _next: NextFunction) => {
        const error = settleError(err, req, res);
        if (!error) return;
        const message =
          error.status >= 500 ? 'Something went wrong on our side. Please try again later.' : error.message;
        if (!res.locals.cspNonce) res.locals.cspNonce = randomBytes(16).toString('base64');
        sendPage(
          res,
          error.status,
          spec.errorPage(error.status, message, { languages: originOf(req).languages ?? [] }),
        );
      },
    );
  }

  private mount<P extends AnySchema, Q extends AnySchema, B extends AnySchema, R extends AnySchema>(
    spec: RouteSpec<P, Q, B, R> & { permission?: Permission; accepts?: Credential[] },
    before: RequestHandler[],
    handler: (input: HandlerInput<P, Q, B>) => Promise<Output<R>>,
  ): void {
    documentRoute(this.registry, this.basePath, spec, this.limits !== undefined);
    const status = spec.status ?? 200;
    const expressPath = spec.path.replace(/\{(\w+)\}/g, ':$1');
    const querySchema = strictQuery(spec.query);
    const bodySchema = spec.body ?? NO_BODY;
    const takesBody = spec.method !== 'get' && !spec.multipart;
    // Most POSTs take an Idempotency-Key (docs/api.md#idempotent-requests).
    const idempotent = takesIdempotencyKey(spec);
    // Secrets shown once (platform/http/shown-once.ts): in the first answer only, never in a stored one.
    const secrets = shownOnceFields(spec.response);
    const run: RequestHandler = async (req, res) => {
      const params = parse(spec.params, req.params, 'path');
      const query = parseQuery(querySchema, req.query);
      let body: unknown;
      if (takesBody) {
        const sent = req.body;
        if (sent === undefined && spec.body && !spec.optionalBody) throw bodyRequired();
        body = parse(bodySchema, sent ?? {}, 'body');
      }
      const produce = async (): Promise<string | undefined> => {
        let result: unknown = await servingRequest(originOf(req), () =>
          handler({ params, query, body, req, res } as HandlerInput<P, Q, B>),
        );
        if (status === 204 || result === undefined || res.headersSent) return undefined;
        if (secrets.length > 0) result = { ...(result as object), [SECRET_ALREADY_SHOWN]: false };
        if (this.checkResponses && spec.response) {
          const checked = spec.response.safeParse(result);
          if (!checked.success) {
            throw new AppError(500, 'Response does not match its schema', undefined, {
              cause: checked.error,
            });
          }
        }
        return JSON.stringify(result);
      };
      const key = idempotent && req.ctx ? idempotencyKeyOf(req) : null;
      const answer =
        key && this.idempotency && req.ctx
          ? await this.idempotency.run(req.ctx, req, key, status, produce, secrets)
          : { status, body: await produce(), replayed: false };
      if (res.headersSent) return;
      if (answer.replayed) res.setHeader('Idempotent-Replayed', 'true');
      if (answer.body === undefined) {
        res.status(answer.status).end();
        return;
      }
      // Straight to node's response: one string, its length known, none of res.json's extra passes.
      res.statusCode = answer.status;
      res.setHeader('Content-Type', 'application/json; charset=utf-8');
      res.end(answer.body);
    };
    this.router[spec.method](
      expressPath,
      this.named(spec.method, spec.path, spec.params),
      ...before,
      ...(takesBody ? [requireJsonBody, this.bodyParser] : []),
      run,
    );
  }
}

/**
 * A form is sent once: a second click (or Enter) on a form already on its way does nothing, so an
 * impatient double-click never creates two users or two keys. The form can be sent again after a few
 * seconds (a lost connection), and when the browser brings the page back from its history. A button
 * with `data-confirm` (every destructive one: withdraw, revoke, deactivate, remove) first asks, in the
 * browser's own dialog, with the text naming the consequence; cancelled, nothing is sent.
 */
/**
 * A secret shown once has a copy button (`data-copy` names the element to copy): the script shows it,
 * copies the text, says so in the live region beside it; where the clipboard is not offered (a page
 * not served over https), it selects the text for the user to copy.
 */
const COPY_BUTTONS = `document.querySelectorAll('button[data-copy]').forEach(function(b){var t=document.getElementById(b.getAttribute('data-copy'));if(!t)return;b.hidden=false;b.addEventListener('click',function(){var said=b.nextElementSibling,done=function(){if(said)said.textContent=b.getAttribute('data-copied')};window.getSelection().selectAllChildren(t);if(navigator.clipboard&&window.isSecureContext)navigator.clipboard.writeText(t.textContent.trim()).then(done,function(){});})});`;

const FORM_GUARD = `document.addEventListener('submit',function(e){var f=e.target,b=e.submitter;if(e.defaultPrevented)return;if(b&&b.getAttribute('data-confirm')&&!f.dataset.sent&&!window.confirm(b.getAttribute('data-confirm'))){e.preventDefault();return}if(f.dataset.sent){e.preventDefault();return}f.dataset.sent='1';setTimeout(function(){delete f.dataset.sent},5000)});addEventListener('pageshow',function(){document.querySelectorAll('form[data-sent]').forEach(function(f){delete f.dataset.sent})});${COPY_BUTTONS}`;

/** A page with a form that posts gets the guard above (run with the response's nonce). */
function withFormGuard(html: string, nonce: string): string {
  if (!/<form[^>]*method="post"/i.test(html) || !html.includes('</body>')) return html;
  return html.replace('</body>', `<script nonce="${nonce}">${FORM_GUARD}</script>\n</body>`);
}

/** Sends a page; its security headers were set by `pageHeaders`. */
function sendPage(res: Response, status: number, html: string): void {
  res.status(status);
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.end(html);
}
