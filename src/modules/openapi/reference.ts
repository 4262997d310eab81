import path from 'node:path';
import type express from 'express';
import type { Router } from 'express';

/** The files of swagger-ui-dist the reference page uses, served from the npm package (no CDN). */
const ASSETS = ['swagger-ui.css', 'swagger-ui-bundle.js', 'favicon-32x32.png'];

const PAGE = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>ActionDesk API reference</title>
<link rel="icon" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css">
</head>
<body>
<main id="reference" aria-label="ActionDesk API reference"></main>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/init.js"></script>
</body>
</html>
`;

const INIT = `window.ui = SwaggerUIBundle({
  url: '/api/v1/openapi.json',
  dom_id: '#reference',
  deepLinking: true,
  tryItOutEnabled: false,
  persistAuthorization: false,
});
`;

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'";

/**
 * A browsable API reference at /docs, built in the browser from /api/v1/openapi.json (routes and the
 * webhook events) by Swagger UI, whose files come from the installed package: works offline.
 */
export function apiReferenceRoutes(router: Router): void {
  const dir = path.dirname(require.resolve('swagger-ui-dist/package.json'));
  const headers = (res: express.Response) => {
    res.setHeader('Content-Security-Policy', CSP);
    res.setHeader('X-Content-Type-Options', 'nosniff');
    res.setHeader('Referrer-Policy', 'no-referrer');
  };
  router.get('/docs', (_req, res) => {
    headers(res);
    res.setHeader('Cache-Control', 'no-cache');
    res.type('html').send(PAGE);
  });
  router.get('/docs/init.js', (_req, res) => {
    headers(res);
    res.type('application/javascript').send(INIT);
  });
  router.get('/docs/assets/:file', (req, res, next) => {
    const file = req.params.file;
    if (!ASSETS.includes(file)) return next();
    headers(res);
    res.sendFile(path.join(dir, file), { maxAge: '1d' });
  });
}
