import { generateDocument, type OpenAPIRegistry } from '../../platform/http/openapi';
import type { Routes } from '../../platform/http/routes';
import { z } from '../../platform/kernel/zod';

/** Serves the OpenAPI 3.1 document built from every registered route. */
export function openapiRoutes(routes: Routes, registry: OpenAPIRegistry, baseUrl: string): void {
  let document: unknown;
  routes.public(
    {
      method: 'get',
      path: '/openapi.json',
      summary: 'This OpenAPI 3.1 document (public)',
      tags: ['Meta'],
      response: z.record(z.string(), z.unknown()),
    },
    async () => {
      document ??= generateDocument(registry, baseUrl);
      return document as Record<string, unknown>;
    },
  );
}
