/** How one operation goes over the wire: what the generator reads from the OpenAPI document. */
export interface OperationSpec {
  readonly id: string;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** The path template under the base URL, `/api/v1/customers/{customerId}`. */
  readonly path: string;
  /** Sends the client's credentials; the OAuth endpoints authenticate the client by their own means. */
  readonly auth: boolean;
  /** Takes an `Idempotency-Key`: one is sent with every call, the same on each of its retries. */
  readonly idempotent: boolean;
  readonly body: 'json' | 'form' | 'multipart' | null;
  /**
   * A list paged by cursor: `items` names the answer's array (null: the answer is the array, and the
   * cursor comes in the `Next-Cursor` and `Has-More` headers); `byPage` when it also takes `page`.
   */
  readonly list: { readonly items: string | null; readonly byPage: boolean } | null;
}

/** A file in a multipart body: its bytes, the name it is sent under and its media type. */
export interface FilePart {
  data: Blob | Uint8Array | ArrayBuffer;
  name: string;
  /** The part's Content-Type; by default `application/pdf` for a `.pdf` name, else `application/octet-stream`. */
  type?: string;
}
