import type { Request, Response } from 'express';
import type { z } from '../kernel/zod';
import type { CsrfGuard } from '../web/csrf';
import type { AddressLimit } from './rate-limit';
import type { SECRET_ALREADY_SHOWN } from './shown-once';

// What a route or a page declares (one spec: its Express pipeline and its OpenAPI entry, routes.ts).

/** A multipart/form-data body: one file in `field`, and the text fields `fields` (name: description). */
export interface UploadSpec {
  field: string;
  description: string;
  fields?: Record<string, string>;
}

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type AnySchema = z.ZodType;

/** What an error page knows of its request besides the error: the browser's languages, an expired form. */
export interface ErrorPageAbout {
  languages: readonly string[];
  expired?: boolean;
}

export interface RouteSpec<
  P extends AnySchema,
  Q extends AnySchema,
  B extends AnySchema,
  R extends AnySchema,
> {
  method: Method;
  /** OpenAPI-style path below the router's base, e.g. `/customers/{customerId}`. */
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  params?: P;
  query?: Q;
  body?: B;
  /** The body may be left out entirely (it is then read as `{}`). */
  optionalBody?: boolean;
  /** A multipart/form-data body with one file field, read by the handler from `req` (documented only). */
  multipart?: UploadSpec;
  /** A binary success response of this content type, written by the handler to `res` (documented only). */
  binary?: {
    contentType: string;
    description: string;
    /** Other types it may be sent as (an image that is a PNG or a JPEG). */
    alsoContentTypes?: string[];
  };
  /** Success status; 204 sends no body. */
  status?: 200 | 201 | 202 | 204;
  response?: R;
  responseDescription?: string;
  /** Error statuses beyond those implied by the spec (e.g. 409), with the standard error body. */
  errors?: number[];
  /** Other answers with a body of their own (e.g. health's 503). */
  alsoResponds?: { status: number; description: string; schema: AnySchema }[];
  /**
   * Routes without credentials: the per-address limit they count against (default `public`), or
   * false for none (health: load balancers poll it). Authenticated routes count per credential.
   */
  rateLimit?: AddressLimit | false;
  /**
   * False for a POST that neither creates nor sends anything lasting (checking a PDF, a test ping that
   * waits for an outside answer): it takes no Idempotency-Key, and holds no transaction open for one.
   */
  idempotent?: false;
}

/** Who a page is for: its CSRF cookie and, for staff, its sign-in. */
export type Audience = 'contact' | 'staff';

/** What pages need from the platform's browser plumbing. */
export interface WebKit {
  csrf: Record<Audience, CsrfGuard>;
  /** The staff sign-in page, where a browser that is not signed in is sent. */
  signInPath: string;
}

export interface PageSpec<P extends AnySchema, Q extends AnySchema, F extends AnySchema> {
  method?: 'get' | 'post';
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  audience: Audience;
  params?: P;
  /** Query parameters the page reads (others are ignored). */
  query?: Q;
  /** Form fields (POST), parsed after the CSRF check; without it the page reads no field. */
  form?: F;
  /**
   * False: the form is documented as a plain object, its fields named in the page's description (the
   * contact's forms, whose lenient schemas read any field as text: a schema that refuses nothing says
   * nothing worth publishing).
   */
  documentForm?: false;
  statuses: Record<number, string>;
  /**
   * The HTML page for an error (bad form, body too large, unexpected): its status, plain message, the
   * browser's languages (most wanted first), and whether it is a form that expired (a stale CSRF token).
   */
  errorPage: (status: number, message: string, about: ErrorPageAbout) => string;
  /**
   * The page when the CSRF token is missing or stale (default: a 403 error page); it runs in the
   * request's origin (requestLanguages() answers).
   */
  csrfFailed?: () => { status: number; html: string };
  /**
   * A GET that starts something on the browser's behalf (a link carrying the page's token as `_csrf`):
   * checked like a form post, so another site cannot start it in the browser.
   */
  csrfOnGet?: boolean;
  /**
   * A form post that sends a file (multipart/form-data, one file in `field`, read by the handler from
   * `req`): the page's token comes in the form's address as `_csrf`, since the body is not parsed first.
   */
  upload?: UploadSpec;
  /** The per-address limit the page counts against (default `public`; staff pages count none). */
  rateLimit?: AddressLimit | false;
}

export interface PageInput<P extends AnySchema, Q extends AnySchema, F extends AnySchema> {
  params: z.output<P>;
  query: z.output<Q>;
  form: z.output<F>;
  req: Request;
  res: Response;
  /** The nonce of this response's inline script. */
  nonce: string;
  /** The CSRF token for the page's forms (sets its cookie). */
  csrf: () => string;
}

export type PageResult = { status: number; html: string } | { redirect: string };

export interface HandlerInput<P extends AnySchema, Q extends AnySchema, B extends AnySchema> {
  params: z.output<P>;
  query: z.output<Q>;
  body: z.output<B>;
  req: Request;
  res: Response;
}

/** What a handler answers: its schema's input, less `secretAlreadyShown` (the platform sets it). */
export type Output<R extends AnySchema> = WithoutMarker<z.input<R>> | undefined;
type WithoutMarker<T> = T extends { [SECRET_ALREADY_SHOWN]: boolean }
  ? Omit<T, typeof SECRET_ALREADY_SHOWN>
  : T;

/** A machine endpoint taking a form and answering JSON in its own shape (the OAuth token endpoint). */
export interface FormEndpointSpec<F extends AnySchema = AnySchema> {
  path: string;
  summary: string;
  description?: string;
  tags: string[];
  /** The form as documented: what a well-formed request sends. */
  form: AnySchema;
  /**
   * The form as the handler gets it, parsed before it runs: lenient (every field optional, a repeated
   * one a list), so that a malformed request is answered by the endpoint in its own words (RFC 6749
   * §5.2), never refused by the platform first.
   */
  fields: F;
  response: AnySchema;
  errors: { status: number; description: string; schema: AnySchema }[];
  rateLimit: AddressLimit;
}
