import { and, eq, type SQL, sql } from 'drizzle-orm';
import { organisationLogos, organisations } from '../../db/schema';
import { queryRows, type Row, type Tx } from '../../platform/db/database';
import type { RequestContext } from '../../platform/kernel/context';

/** The organisation's face to its contacts, as stored (the logo without its bytes). */
export interface BrandRow {
  name: string;
  brandName: string | null;
  brandColour: string | null;
  mailSenderName: string | null;
  mailReplyTo: string | null;
  smsSender: string | null;
  requireCodeToDecline: boolean;
  logo: { id: string; contentType: 'image/png' | 'image/jpeg'; size: number } | null;
}

export type BrandChange = Partial<Omit<BrandRow, 'name' | 'logo'>>;

export interface LogoRow {
  id: string;
  contentType: 'image/png' | 'image/jpeg';
  bytes: Buffer;
}

/**
 * The brand of the context's organisation in one statement (to run alone, or in a read batch with
 * others: see batchInTenant); read with brandFromRaw.
 */
export function brandStatement(ctx: RequestContext): SQL {
  return sql`SELECT o.name, o.brand_name, o.brand_colour, o.mail_sender_name, o.mail_reply_to, o.sms_sender,
                    o.require_code_to_decline, l.id AS logo_id, l.content_type AS logo_type, l.size AS logo_size
               FROM organisations o
               LEFT JOIN organisation_logos l ON l.organisation_id = o.id
              WHERE o.id = ${ctx.organisationId}::uuid`;
}

/** A brandStatement row; undefined when the organisation does not exist. */
export function brandFromRaw(raw: Row | undefined): BrandRow | undefined {
  if (!raw) return undefined;
  const text = (v: unknown) => (typeof v === 'string' ? v : null);
  return {
    name: String(raw.name ?? ''),
    brandName: text(raw.brand_name),
    brandColour: text(raw.brand_colour),
    mailSenderName: text(raw.mail_sender_name),
    mailReplyTo: text(raw.mail_reply_to),
    smsSender: text(raw.sms_sender),
    requireCodeToDecline: raw.require_code_to_decline === true,
    logo: raw.logo_id
      ? {
          id: String(raw.logo_id),
          contentType: raw.logo_type === 'image/png' ? 'image/png' : 'image/jpeg',
          size: Number(raw.logo_size),
        }
      : null,
  };
}

export function brandRepository(q: Tx, ctx: RequestContext) {
  const own = eq(organisations.id, ctx.organisationId);
  const ownLogo = eq(organisationLogos.organisationId, ctx.organisationId);
  return {
    async find(): Promise<BrandRow | undefined> {
      const [raw] = await queryRows<Row>(q, brandStatement(ctx));
      return brandFromRaw(raw);
    },
    /** Holds the organisation's row to the end of the transaction: brand changes one at a time. */
    async lock(): Promise<boolean> {
      const rows = await q.select({ id: organisations.id }).from(organisations).where(own).for('update');
      return rows.length > 0;
    },
    async update(change: BrandChange): Promise<void> {
      if (Object.keys(change).length === 0) return;
      await q.update(organisations).set(change).where(own);
    },
    /** The logo with its bytes; `id`: only when it is still this one (its public address). */
    async logo(id?: string): Promise<LogoRow | undefined> {
      const [row] = await q
        .select({
          id: organisationLogos.id,
          contentType: organisationLogos.contentType,
          bytes: organisationLogos.bytes,
        })
        .from(organisationLogos)
        .where(and(ownLogo, id === undefined ? undefined : eq(organisationLogos.id, id)));
      return row;
    },
    /** Sets the logo, replacing the one there was. */
    async putLogo(logo: LogoRow & { createdAt: Date }): Promise<void> {
      const values = { ...logo, size: logo.bytes.length };
      await q
        .insert(organisationLogos)
        .values({ ...values, organisationId: ctx.organisationId })
        .onConflictDoUpdate({ target: organisationLogos.organisationId, set: values });
    },
    async removeLogo(): Promise<boolean> {
      const rows = await q.delete(organisationLogos).where(ownLogo).returning({ id: organisationLogos.id });
      return rows.length > 0;
    },
  };
}
