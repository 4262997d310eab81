import type { Request, Response } from 'express';
import { readAll } from '../../platform/files/storage';
import type { Routes } from '../../platform/http/routes';
import { NotFound } from '../../platform/kernel/errors';
import { z } from '../../platform/kernel/zod';
import { sendPageImage } from '../../platform/web/headers';
import type { PageKit } from './page-kit';
import { code, codeParams as params, tags } from './respondent.schemas';
import type { SigningRouteDeps } from './signer-page';
import { isSigningAction, viewForSigning } from './signing';

const documentParams = z.object({
  code,
  index: z
    .string()
    .max(200)
    .meta({ param: { name: 'index', in: 'path' }, description: 'The document to sign, from 0' }),
});
const pageParams = documentParams.extend({
  page: z
    .string()
    .max(200)
    .meta({ param: { name: 'page', in: 'path' }, description: 'The page, from 1' }),
});

/** A PDF as a download: a plain fallback name, and the file's own name in RFC 5987 form. */
function sendPdf(res: Response, bytes: Buffer, fallbackName: string, fileName: string): void {
  res.status(200);
  res.setHeader('Content-Type', 'application/pdf');
  res.setHeader('Content-Length', String(bytes.length));
  res.setHeader(
    'Content-Disposition',
    `attachment; filename="${fallbackName}"; filename*=UTF-8''${encodeURIComponent(fileName)}`,
  );
  res.setHeader('Cache-Control', 'private, no-store');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.end(bytes);
}

/** The signer's documents: the PDF to sign, its pages as images, and their copy once signed. */
export function signingDocumentRoutes(routes: Routes, deps: SigningRouteDeps, kit: PageKit): void {
  /** The signer's document bytes (and what they are), or a 404 for anything else. */
  const documentFor = async (req: Request, rawCode: string, index: string) => {
    const found = await viewForSigning(deps, rawCode, kit.respondentOf(req), false);
    const doc = found.facts?.document;
    if (found.view.outcome !== 'ok' || !isSigningAction(found.view) || !doc || index !== '0')
      throw new NotFound('No such document');
    return doc;
  };

  routes.public(
    {
      method: 'get',
      path: '/action/{code}/documents/{index}',
      summary: 'Signing: the document to sign, as uploaded (PDF)',
      description:
        'For the signer’s link only, while the action is open or completed; 404 for an unknown code or document, and once the action is withdrawn, expired or declined.',
      tags,
      params: documentParams,
      binary: { contentType: 'application/pdf', description: 'The original document' },
      errors: [404],
    },
    async ({ params: p, req, res }) => {
      const doc = await documentFor(req, p.code, p.index);
      sendPdf(res, await readAll(deps.storage, doc.storageKey), 'document.pdf', doc.fileName);
      return undefined;
    },
  );

  routes.public(
    {
      method: 'get',
      path: '/action/{code}/signed',
      summary: 'Signing: the signer’s copy of the signed, sealed document (PDF)',
      description:
        'Once the action is completed, for a signer who signed, on their own link. 404 before that, for an unknown code, and once the action is withdrawn or deleted.',
      tags,
      params,
      binary: { contentType: 'application/pdf', description: 'The signed document' },
      errors: [404],
    },
    async ({ params: p, req, res }) => {
      const found = await viewForSigning(deps, p.code, kit.respondentOf(req), false);
      const signed = found.view.outcome === 'ok' ? found.facts?.signed : undefined;
      if (!signed) throw new NotFound('No signed document (yet)');
      sendPdf(res, await readAll(deps.storage, signed.storageKey), 'signed.pdf', signed.fileName);
      return undefined;
    },
  );

  routes.public(
    {
      method: 'get',
      path: '/action/{code}/documents/{index}/pages/{page}',
      summary: 'Signing: one page of the document to sign, as an image (PNG)',
      description:
        'Drawn by poppler (pdftoppm), 1100 pixels wide. 404 for a page that does not exist, or when page images cannot be drawn on this server (the page then offers the download).',
      tags,
      params: pageParams,
      binary: { contentType: 'image/png', description: 'The page' },
      errors: [404],
    },
    async ({ params: p, req, res }) => {
      const doc = await documentFor(req, p.code, p.index);
      const facts = await deps.previews.factsOf(doc);
      const page = /^\d{1,4}$/.test(p.page) ? Number(p.page) : 0;
      if (page < 1 || page > facts.pages.length) throw new NotFound('No such page');
      const png = await deps.previews.image(doc, page);
      if (!png) throw new NotFound('This page cannot be drawn here: download the document instead');
      sendPageImage(res, png);
      return undefined;
    },
  );
}
