// The create's yardstick (issue 29): a plain node:http handler that answers POST /api/v1/sessionrequests
// for the bench's e-mail request ({type:'qlist', customerId, questionListIds:[id],
// notificationEmail:{send:true}}) with the same durable effects and the same JSON as the API, with pg
// (server, DATABASE_URL, 10 connections) or PGlite (embedded, PGDATA_DIR) — no framework, auth, tenancy,
// validation library or ORM.
//
// One statement (one round trip, one transaction: a prepared statement on the server) checks that the
// contact is one of the organisation's, reads the template's version and language, and inserts the
// action (with a random code), its history row, its invitation job (kind and attempts from the job
// type's declaration) and its `sessionrequest.created` and `sessionrequest.sent` events (the API writes
// both for an invited action), with the API's data. The bench organisation has no webhook endpoints, so
// the API's fan-out writes no deliveries; the bare has no fan-out.
//
// Triggers: it connects as the table owner (row-level security does not hold it) and turns the audit
// trail off for its connections (app.audit_rows = off: the audit trigger fires and returns at once,
// no audit row). The server's owner role may not set session_replication_role (superusers only), so the
// other triggers still fire on its inserts, as on the API's: touch_change_insert (the action's
// change_txid, the sync order), session_requests_credential_key (the code's credential_keys row, without
// which the link does not resolve) and jobs_notify (a NOTIFY at commit). PGlite's user could turn them
// off; the embedded bare keeps them all the same, so that both databases compare alike. The bench runs
// no worker meanwhile: its jobs stay queued.
//
// GET /bench/rows?id=<action id> answers what the database holds for one action (either side's), for the
// bench's check that the bare writes what the API writes.
import http from 'node:http';
import { languages } from '../src/db/schema/enums';
import { notificationJob } from '../src/modules/sessionrequests/sessionrequests.view';
import { newActionCode } from '../src/platform/crypto/codes';
import { newId } from '../src/platform/kernel/ids';
import { openBareDatabase } from './support/bare-database';

// $1 org, $2 contact, $3 template, $4 action id, $5 code, $6 user, $7 now, $8 history id, $9 job id,
// $10 job kind, $11 job payload, $12 job attempts, $13 created event id, $14 sent event id,
// $15 action url, $16 the languages in the order the API chooses from.
const CREATE = `
WITH c AS (
  SELECT id, thirdparty_id FROM customers WHERE organisation_id = $1::uuid AND id = $2::uuid
), t AS (
  SELECT q.id, q.version,
         (SELECT l FROM unnest($16::text[]) WITH ORDINALITY u(l, o)
           WHERE l = ANY(q.supported_languages) ORDER BY o LIMIT 1) AS language
    FROM question_lists q WHERE q.organisation_id = $1::uuid AND q.id = $3::uuid AND q.active
), a AS (
  INSERT INTO session_requests (id, organisation_id, code, type, status, customer_id, question_list_ids,
    question_list_versions, language, notify_email, notify_sms, created_by, created_at, updated_at,
    sent_at, draft)
  SELECT $4::uuid, $1::uuid, $5::text, 'qlist', 'sent', c.id, ARRAY[t.id], ARRAY[t.version], t.language,
         true, false, $6::uuid, $7::timestamptz, $7::timestamptz, $7::timestamptz, '{}'::jsonb
    FROM c, t WHERE t.language IS NOT NULL
  RETURNING id, language
), h AS (
  INSERT INTO session_request_events (id, organisation_id, session_request_id, from_status, to_status,
    actor, user_id, at)
  SELECT $8::uuid, $1::uuid, a.id, NULL, 'sent', 'user', $6::uuid, $7::timestamptz FROM a
), j AS (
  INSERT INTO jobs (id, organisation_id, kind, subject_id, payload, status, run_at, max_attempts, created_at)
  SELECT $9::uuid, $1::uuid, $10::text, a.id, $11::jsonb, 'pending', $7::timestamptz, $12::integer,
         $7::timestamptz FROM a
), v AS (
  INSERT INTO events (id, organisation_id, type, subject_id, data, created_at)
  SELECT e.id, $1::uuid, e.type, a.id,
         jsonb_build_object(
           'sessionRequest', jsonb_build_object('_id', a.id, 'code', $5::text, 'status', 'sent',
                                                'type', 'qlist', 'url', $15::text),
           'customer', jsonb_build_object('_id', c.id, 'thirdpartyId', c.thirdparty_id),
           'sessionId', NULL, 'documents', '[]'::jsonb),
         $7::timestamptz
    FROM a CROSS JOIN c
   CROSS JOIN (VALUES ($13::uuid, 'sessionrequest.created', 1), ($14::uuid, 'sessionrequest.sent', 2))
         AS e(id, type, ord)
   ORDER BY e.ord
)
SELECT (SELECT count(*) FROM c) AS contacts, (SELECT count(*) FROM t) AS templates,
       (SELECT language FROM a) AS language`;

/** What the bench's check compares: the rows of one action in every table the create writes. */
const ROWS = {
  session_requests: 'SELECT * FROM session_requests WHERE id = $1::uuid',
  session_request_events: 'SELECT * FROM session_request_events WHERE session_request_id = $1::uuid',
  jobs: 'SELECT * FROM jobs WHERE subject_id = $1::uuid ORDER BY id',
  events: 'SELECT * FROM events WHERE subject_id = $1::uuid ORDER BY seq',
  audit_events: 'SELECT * FROM audit_events WHERE target_id = $1::text',
  credential_keys: `SELECT k.* FROM credential_keys k JOIN session_requests a ON k.kind = 'session_requests.code'
                     AND k.value = a.code WHERE a.id = $1::uuid`,
};

interface Create {
  customerId: string;
  templateId: string;
}

/** The bench's e-mail request, or null for any other (the bare makes nothing else). */
function readCreate(body: string): Create | null {
  const input = JSON.parse(body) as Record<string, unknown>;
  const keys = Object.keys(input).sort().join(',');
  const ids = input.questionListIds;
  const email = input.notificationEmail as { send?: unknown } | undefined;
  if (keys !== 'customerId,notificationEmail,questionListIds,type' || input.type !== 'qlist') return null;
  if (typeof input.customerId !== 'string' || !Array.isArray(ids) || ids.length !== 1) return null;
  if (typeof ids[0] !== 'string' || email?.send !== true) return null;
  return { customerId: input.customerId, templateId: ids[0] };
}

function answer(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

async function main() {
  const { query, close } = await openBareDatabase({ 'app.audit_rows': 'off' });
  const organisationId = process.env.ORG_ID as string;
  const userId = process.env.USER_ID as string;
  const baseUrl = process.env.BASE_URL ?? `http://localhost:${process.env.PORT}`;
  const server = http.createServer(async (req, res) => {
    try {
      const url = new URL(req.url ?? '/', 'http://x');
      if (req.method === 'GET' && url.pathname === '/bench/rows') {
        const id = url.searchParams.get('id') ?? '';
        const rows: Record<string, unknown> = {};
        for (const [table, text] of Object.entries(ROWS)) rows[table] = await query(text, [id]);
        return answer(res, 200, rows);
      }
      if (req.method !== 'POST' || url.pathname !== '/api/v1/sessionrequests')
        return answer(res, 404, { message: 'Not found' });
      const chunks: Buffer[] = [];
      for await (const chunk of req) chunks.push(chunk as Buffer);
      const input = readCreate(Buffer.concat(chunks).toString('utf8'));
      if (!input) return answer(res, 400, { message: 'the bare reference makes only the bench request' });
      const now = new Date();
      const at = now.toISOString();
      const ms = now.getTime();
      const id = newId(ms);
      const code = newActionCode();
      const link = `${baseUrl}/action/${code}`;
      const payload = { channel: 'email', purpose: 'invitation' };
      const [made] = await query(
        CREATE,
        [
          organisationId,
          input.customerId,
          input.templateId,
          id,
          code,
          userId,
          at,
          newId(ms),
          newId(ms),
          notificationJob.kind,
          JSON.stringify(payload),
          notificationJob.maxAttempts,
          newId(ms),
          newId(ms),
          link,
          languages,
        ],
        'bare-create',
      );
      if (Number(made?.contacts) === 0)
        return answer(res, 400, { message: 'customerId is not a contact of this organisation' });
      if (!made?.language) return answer(res, 400, { message: 'questionListIds[0] cannot be used' });
      answer(res, 201, {
        _id: id,
        code,
        url: link,
        type: 'qlist',
        status: 'sent',
        customerId: input.customerId,
        portfolioId: null,
        questionListIds: [input.templateId],
        document: null,
        signatureLevel: null,
        signingOrder: null,
        signers: [],
        language: made.language,
        message: null,
        expiresAt: null,
        notificationEmail: { send: true },
        notificationSms: { send: false },
        reminderSchedule: { reminder1Days: null, reminder2Days: null },
        createdBy: userId,
        createdAt: at,
        updatedAt: at,
        sentAt: at,
        openedAt: null,
        completedAt: null,
        closedAt: null,
        notifications: [
          {
            ...payload,
            signerId: null,
            status: 'pending',
            attempts: 0,
            sends: 0,
            lastError: null,
            scheduledFor: at,
            sentAt: null,
          },
        ],
        history: [{ from: null, to: 'sent', at, actor: 'user', userId }],
      });
    } catch (err) {
      process.stderr.write(`bare-create: ${err}\n`);
      if (!res.headersSent) answer(res, 500, { message: 'Internal error' });
    }
  });
  server.listen(Number(process.env.PORT), '127.0.0.1', () => process.stdout.write('ready\n'));
  // The embedded database is closed before the bench hands its data directory to the API again.
  process.once('SIGTERM', () => {
    server.close();
    server.closeAllConnections();
    close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  });
}

main().catch((err) => {
  process.stderr.write(`${err}\n`);
  process.exit(1);
});
