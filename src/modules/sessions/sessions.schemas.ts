import { idFilter, timestamp } from '../../platform/kernel/schemas';
import { z } from '../../platform/kernel/zod';
import { cursorAnswer, cursorQuery } from '../../platform/lists/cursor';
import { pageQuery } from '../../platform/lists/pagination';
import { Language } from '../questionlists';

export const SessionResponse = z
  .object({
    questionId: z.string(),
    questionTitle: z.string().meta({ description: 'In the language the contact answered in' }),
    response: z
      .string()
      .meta({ description: 'As people read it: option labels, Yes/No, multiple choice joined by ", "' }),
    value: z
      .unknown()
      .meta({ description: 'The raw answer: string, number, boolean, or the list of chosen option values' }),
    questionListId: z.string(),
  })
  .meta({ id: 'SessionResponse' });

export const SessionDocument = z
  .object({
    fileName: z.string(),
    fileUrl: z.string().meta({ description: 'Relative path starting with /files/downloads/' }),
    fileId: z.string(),
  })
  .meta({ id: 'SessionDocument' });

export const Session = z
  .object({
    _id: z.string(),
    sessionRequest: z.string(),
    customer: z.string().nullable(),
    language: Language,
    responses: z.array(SessionResponse),
    documents: z.array(SessionDocument),
    documentsPending: z.boolean().meta({
      description:
        'The documents (the PDF report, a signed document) are being made; they appear here, and the action completes, when ready',
    }),
    version: z.number().int().meta({ description: '1, then one more at every resubmission after a reopen' }),
    createdAt: timestamp,
    updatedAt: timestamp,
  })
  .meta({ id: 'Session' });

export const SessionDetail = Session.extend({
  history: z.array(
    z.object({
      version: z.number().int(),
      submittedAt: timestamp,
      responses: z.array(SessionResponse),
      documents: z.array(SessionDocument),
    }),
  ),
}).meta({ id: 'SessionDetail' });

export const SessionList = z
  .object({ sessions: z.array(Session), total: z.number().int(), ...cursorAnswer })
  .meta({ id: 'SessionList' });

export const ListSessionsQuery = z.object({
  sessionRequestId: idFilter('Only sessions of this action').optional(),
  customerId: idFilter('Only sessions of this contact').optional(),
  ...pageQuery,
  ...cursorQuery,
});

export type Session = z.infer<typeof Session>;
export type ListSessionsQuery = z.infer<typeof ListSessionsQuery>;
