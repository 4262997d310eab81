import type { SendProblem } from '../../i18n/desk-send-problems';
import type { Routes } from '../../platform/http/routes';
import type { RequestContext } from '../../platform/kernel/context';
import { AppError } from '../../platform/kernel/errors';
import { isId } from '../../platform/kernel/ids';
import { z } from '../../platform/kernel/zod';
import { receiveUpload, recordUpload } from '../files';
import { type DocumentStepView, documentStep } from './pages/document.pages';
import { DocumentForm, many, readOptions } from './wizard.forms';
import { sendDocument, uploadedPdf } from './wizard.service';
import { frameOf, pickedPeople, problemsOf, sent, type WizardRouteDeps, wizardPage } from './wizard.view';

// The desk's own quick-signing (/sessionrequests/new?step=document): a PDF uploaded here, sent to the
// contacts picked, in their order.

export interface DocumentRouteDeps extends WizardRouteDeps {
  maxFileBytes: number;
}

/** Why an upload was refused, in the step's words: too large, not a PDF, no file, or it did not arrive. */
function uploadProblem(err: AppError, maxFileBytes: number): SendProblem {
  if (err.status === 413) return { tooLarge: maxFileBytes };
  const said = [err.message, ...(err.details ?? []).map((d) => d.message)].join(' ');
  if (/not a PDF/.test(said)) return 'notPdf';
  if (err.status !== 415 && /one file in this field is required/.test(said)) return 'noFile';
  return 'notMultipart';
}

/** The document step, with the file when there is one. */
export async function documentStepPage(
  deps: DocumentRouteDeps,
  ctx: RequestContext,
  page: { csrf: string; nonce: string; status?: number },
  input: { contactIds: string[]; fileId?: string } & Pick<DocumentStepView, 'values' | 'problems'>,
) {
  const people = (await pickedPeople(deps, ctx, [...new Set(input.contactIds)])).map((p) => ({
    id: p.value,
    name: p.name,
    email: p.email ?? '',
    phone: p.phone,
  }));
  const file = input.fileId && isId(input.fileId) ? await uploadedPdf(deps, ctx, input.fileId) : null;
  return {
    status: page.status ?? (input.problems?.length ? 400 : 200),
    html: documentStep(await frameOf(deps, ctx, page.csrf), {
      people,
      ...(file ? { file } : {}),
      ...(input.values ? { values: input.values } : {}),
      ...(input.problems ? { problems: input.problems } : {}),
      qualified: deps.qualifiedSigning,
      maxFileBytes: deps.maxFileBytes,
      nonce: page.nonce,
    }),
  };
}

export function documentWizardRoutes(routes: Routes, deps: DocumentRouteDeps): void {
  routes.staffPage(
    {
      ...wizardPage,
      method: 'post',
      path: '/sessionrequests/new/upload',
      summary: 'Upload the PDF to send for signing (multipart form post)',
      description:
        'Query: `_csrf` (the page’s token: the body is a file), `contact` (repeated: the signers picked). One part: the PDF in `file`, at most MAX_FILE_SIZE, recognised by its content. Stored like `POST /api/v1/files`, then back to the document step with its pages shown.',
      query: z.object({ contact: many(10) }),
      upload: { field: 'file', description: 'The PDF to sign' },
      statuses: {
        303: 'Stored: to the document step with the file',
        400: 'No file, or not a PDF (the step again, saying so)',
        413: 'Larger than MAX_FILE_SIZE (the step again, saying so)',
        415: 'Not sent as multipart/form-data (the step again, saying so)',
      },
    },
    async ({ ctx, req, query, csrf, nonce }) => {
      try {
        const stored = await recordUpload(deps, ctx, await receiveUpload(deps, ctx, req));
        const back = new URLSearchParams([
          ['step', 'document'],
          ...query.contact.map((id): [string, string] => ['contact', id]),
          ['file', stored._id],
        ]);
        return { redirect: `/sessionrequests/new?${back.toString()}` };
      } catch (err) {
        if (!(err instanceof AppError) || err.status >= 500) throw err;
        return documentStepPage(
          deps,
          ctx,
          { csrf: csrf(), nonce, status: err.status },
          { contactIds: query.contact, problems: [uploadProblem(err, deps.maxFileBytes)] },
        );
      }
    },
  );

  routes.staffPage(
    {
      ...wizardPage,
      method: 'post',
      path: '/sessionrequests/new/document',
      summary: 'Send the uploaded PDF for signing (form post)',
      description:
        'Fields: `_csrf`, `fileId` (the upload), `title` (1–200 characters), `contact` (repeated: the signers) with `position` (repeated, the same order: each signer’s place, from 1), `signingOrder` (`parallel` or `sequential`), `email`/`sms` (`yes`), `reminder1Days`, `reminder2Days`, `expiresOn`, `language`, `message`, `signatureLevel`. One quicksign action the signers all sign.',
      form: DocumentForm,
      statuses: { 303: 'Sent: to the page listing it', 400: 'The step again with every problem named' },
    },
    async ({ ctx, form, csrf, nonce }) => {
      const { options, values, problems } = readOptions(form);
      const title = form.title?.replace(/\s+/g, ' ').trim() ?? '';
      if (!title) problems.unshift('titleMissing');
      else if (title.length > 200) problems.unshift('titleLong');
      // The signers in the order given (a place left empty or unreadable keeps the listed order).
      const positions = form.contact.map((_, i) => {
        const n = Number(form.position[i]);
        return Number.isInteger(n) && n > 0 ? n : i + 1;
      });
      const ordered = form.contact
        .map((id, i) => ({ id, at: positions[i]!, i }))
        .sort((a, b) => a.at - b.at || a.i - b.i)
        .map((s) => s.id);
      const signingOrder = form.signingOrder === 'sequential' ? 'sequential' : 'parallel';
      if (problems.length === 0) {
        try {
          return sent(
            await sendDocument(deps, ctx, {
              ...options,
              fileId: form.fileId,
              title,
              contactIds: ordered,
              signingOrder,
            }),
          );
        } catch (err) {
          problems.push(...problemsOf(err, ordered));
        }
      }
      return documentStepPage(
        deps,
        ctx,
        { csrf: csrf(), nonce },
        {
          contactIds: form.contact,
          fileId: form.fileId,
          values: { ...values, title, sequential: signingOrder === 'sequential', positions },
          problems,
        },
      );
    },
  );
}
