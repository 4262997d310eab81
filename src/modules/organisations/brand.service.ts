import type { SQL } from 'drizzle-orm';
import { newActionCode } from '../../platform/crypto/codes';
import type { Database, Row, Tx } from '../../platform/db/database';
import { inTenant } from '../../platform/db/tenant';
import type { Clock } from '../../platform/kernel/clock';
import { type RequestContext, systemContext } from '../../platform/kernel/context';
import { NotFound } from '../../platform/kernel/errors';
import { isId } from '../../platform/kernel/ids';
import type { MailBrand } from '../../platform/outbound/mail-layout';
import { readableOnWhite } from '../../platform/web/colour';
import {
  type BrandChange,
  type BrandRow,
  brandFromRaw,
  brandRepository,
  brandStatement,
} from './brand.repository';
import type { BrandSettings, UpdateBrand } from './brand.schemas';
import { logoType } from './logo';

export interface BrandDeps {
  database: Database;
  clock: Clock;
}

/**
 * The organisation as its contacts see it, for their pages and the messages and documents they get.
 * `colour` is the one to draw with: darkened where white text on it would not read; null for the
 * product's own.
 */
export interface OrganisationBrand {
  name: string;
  colour: string | null;
  /** The logo's public address below the base URL (`/logos/…`), or null. */
  logoPath: string | null;
  mailSenderName: string | null;
  mailReplyTo: string | null;
  smsSender: string | null;
  requireCodeToDecline: boolean;
}

const logoPathOf = (organisationId: string, logoId: string) => `/logos/${organisationId}/${logoId}`;

function brandOf(ctx: RequestContext, row: BrandRow | undefined): OrganisationBrand {
  return {
    name: row?.brandName ?? row?.name ?? '',
    colour: readableOnWhite(row?.brandColour),
    logoPath: row?.logo ? logoPathOf(ctx.organisationId, row.logo.id) : null,
    mailSenderName: row?.mailSenderName ?? null,
    mailReplyTo: row?.mailReplyTo ?? null,
    smsSender: row?.smsSender ?? null,
    requireCodeToDecline: row?.requireCodeToDecline ?? false,
  };
}

/** The caller's organisation as its contacts see it (the product's look when it does not exist). */
export async function organisationBrand(tx: Tx, ctx: RequestContext): Promise<OrganisationBrand> {
  return brandOf(ctx, await brandRepository(tx, ctx).find());
}

/**
 * The brand as one statement of a read batch (batchInTenant), and its rows read: for a job that reads
 * what its message needs in one round trip.
 */
export const brandRead = {
  statement: (ctx: RequestContext): SQL => brandStatement(ctx),
  of: (ctx: RequestContext, rows: Row[] | undefined): OrganisationBrand =>
    brandOf(ctx, brandFromRaw(rows?.[0])),
};

/**
 * What a message to contacts carries of the brand: the e-mail's look (mailLayout's `from` and `brand`),
 * its sender (MailMessage's `sender`) and the SMS sender id (SmsMessage's `from`).
 */
export function messageBrand(brand: OrganisationBrand, baseUrl: string) {
  return {
    from: brand.name,
    look: {
      ...(brand.colour ? { colour: brand.colour } : {}),
      ...(brand.logoPath ? { logoUrl: `${baseUrl}${brand.logoPath}` } : {}),
    } satisfies MailBrand,
    sender: { name: brand.mailSenderName, replyTo: brand.mailReplyTo },
    smsFrom: brand.smsSender,
  };
}

export type MessageBrand = ReturnType<typeof messageBrand>;

/** The logo's type and bytes, for a document that shows it; null when there is none. */
export async function organisationLogo(
  tx: Tx,
  ctx: RequestContext,
): Promise<{ contentType: 'image/png' | 'image/jpeg'; bytes: Buffer } | null> {
  return (await brandRepository(tx, ctx).logo()) ?? null;
}

function settingsOf(ctx: RequestContext, row: BrandRow): BrandSettings {
  return {
    organisationName: row.name,
    brandName: row.brandName,
    displayName: row.brandName ?? row.name,
    colour: row.brandColour,
    shownColour: readableOnWhite(row.brandColour),
    logo: row.logo
      ? {
          url: logoPathOf(ctx.organisationId, row.logo.id),
          contentType: row.logo.contentType,
          size: row.logo.size,
        }
      : null,
    mailSenderName: row.mailSenderName,
    mailReplyTo: row.mailReplyTo,
    smsSender: row.smsSender,
    requireCodeToDecline: row.requireCodeToDecline,
  };
}

async function requireBrand(tx: Tx, ctx: RequestContext): Promise<BrandRow> {
  const row = await brandRepository(tx, ctx).find();
  if (!row) throw new NotFound('Organisation not found');
  return row;
}

/** The organisation's brand settings (administrators). */
export async function getBrand(deps: BrandDeps, ctx: RequestContext): Promise<BrandSettings> {
  return settingsOf(ctx, await inTenant(deps.database, ctx, (tx) => requireBrand(tx, ctx)));
}

/**
 * Changes the fields sent (null clears one). The organisations table's audit trigger records what
 * changed, under the request; a change to the same values records nothing.
 */
export async function updateBrand(
  deps: BrandDeps,
  ctx: RequestContext,
  input: UpdateBrand,
): Promise<BrandSettings> {
  return inTenant(deps.database, ctx, async (tx) => {
    const brands = brandRepository(tx, ctx);
    if (!(await brands.lock())) throw new NotFound('Organisation not found');
    const change: BrandChange = {};
    if (input.brandName !== undefined) change.brandName = input.brandName;
    if (input.colour !== undefined) change.brandColour = input.colour;
    if (input.mailSenderName !== undefined) change.mailSenderName = input.mailSenderName;
    if (input.mailReplyTo !== undefined) change.mailReplyTo = input.mailReplyTo;
    if (input.smsSender !== undefined) change.smsSender = input.smsSender;
    if (input.requireCodeToDecline !== undefined) change.requireCodeToDecline = input.requireCodeToDecline;
    await brands.update(change);
    return settingsOf(ctx, await requireBrand(tx, ctx));
  });
}

/**
 * Sets the logo (a PNG or JPEG of at most 200 KB, recognised by its content: see logoType), replacing
 * any other; it gets a new public address. Recorded by the logos table's audit trigger.
 */
export async function setLogo(deps: BrandDeps, ctx: RequestContext, bytes: Buffer): Promise<BrandSettings> {
  const contentType = await logoType(bytes);
  return inTenant(deps.database, ctx, async (tx) => {
    const brands = brandRepository(tx, ctx);
    if (!(await brands.lock())) throw new NotFound('Organisation not found');
    await brands.putLogo({ id: newActionCode(), contentType, bytes, createdAt: deps.clock.now() });
    return settingsOf(ctx, await requireBrand(tx, ctx));
  });
}

/** Removes the logo; 404 when there is none. */
export async function removeLogo(deps: BrandDeps, ctx: RequestContext): Promise<void> {
  await inTenant(deps.database, ctx, async (tx) => {
    if (!(await brandRepository(tx, ctx).removeLogo())) throw new NotFound('The organisation has no logo');
  });
}

/**
 * A logo by its public address: anyone may read it (contacts' pages and e-mails show it), but only at
 * its current address, which is random per upload and per organisation. Null for anything else.
 */
export async function publicLogo(
  deps: BrandDeps,
  organisationId: string,
  logoId: string,
): Promise<{ contentType: string; bytes: Buffer } | null> {
  if (!isId(organisationId) || !/^[0-9a-z]{20}$/.test(logoId)) return null;
  const ctx = systemContext(organisationId, deps.clock.now(), 'logo');
  return (await inTenant(deps.database, ctx, (tx) => brandRepository(tx, ctx).logo(logoId))) ?? null;
}
