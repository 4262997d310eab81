import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js';

/** True for a two-letter region libphonenumber knows (BE, NL, FR, …). */
export function isPhoneRegion(region: string): boolean {
  return isSupportedCountry(region);
}

/**
 * A phone number as an SMS provider expects it, in E.164 (`+32470123456`), or null when it cannot be
 * read as a valid number. A number written without its country code is read in `region`.
 */
export function toE164(raw: string, region: string): string | null {
  const parsed = parsePhoneNumberFromString(raw.trim(), region as CountryCode);
  return parsed?.isValid() ? parsed.number : null;
}
