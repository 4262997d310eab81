import { createHash } from 'node:crypto';
import { random62 } from './oauth.service';

// The strings the token endpoint hands out: made here, recognised by their format, stored as SHA-256.

/** An access token: `adt_` + 40 base62 characters; only its SHA-256 is stored. */
export const newAccessToken = () => `adt_${random62(40)}`;
/** A refresh token: `adr_` + 40 base62 characters; stored as SHA-256, rotated on every use. */
export const newRefreshToken = () => `adr_${random62(40)}`;
/** An authorization code: `adg_` + 40 base62 characters; stored as SHA-256, single-use. */
export const newAuthorizationCode = () => `adg_${random62(40)}`;
export const hashToken = (token: string) => createHash('sha256').update(token, 'utf8').digest('hex');

/** What a refresh token looks like (anything else is not looked up). */
export const REFRESH_FORMAT = /^adr_[0-9A-Za-z]{40}$/;
/** What an authorization code looks like (anything else is not looked up). */
export const CODE_FORMAT = /^adg_[0-9A-Za-z]{40}$/;
