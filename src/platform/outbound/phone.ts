import { type CountryCode, isSupportedCountry, parsePhoneNumberFromString } from 'libphonenumber-js/max';

/** True for a two-letter region libphonenumber knows (BE, NL, FR, …). */
export function isPhoneRegion(region: string): boolean {
  return isSupportedCountry(region);
}

/** Number types that cannot receive a text message. */
const NOT_FOR_SMS = new Set([
  'FIXED_LINE',
  'TOLL_FREE',
  'PREMIUM_RATE',
  'SHARED_COST',
  'PAGER',
  'UAN',
  'VOICEMAIL',
]);

export type SmsNumber = { number: string } | { problem: string };

/**
 * A phone number as an SMS provider expects it, in E.164 (`+32470123456`), checked against the full
 * numbering plans (libphonenumber's "max" metadata); a number written without its country code is read
 * in `region`; words around it (`0478 12 34 56 (gsm)`, `tel.: …`) are ignored, so contacts keep their
 * numbers as people write them and are read only here, when an SMS goes out. A number that is not
 * valid, or valid but of a kind that takes no SMS (a fixed line, a toll-free or premium number), says
 * why instead.
 */
export function smsNumber(raw: string, region: string): SmsNumber {
  const parsed = parsePhoneNumberFromString(raw.trim(), region as CountryCode);
  if (!parsed?.isValid())
    return {
      problem: `cannot be read as a phone number (numbers without a country code are read as ${region})`,
    };
  const type = parsed.getType();
  if (type && NOT_FOR_SMS.has(type))
    return { problem: `is a ${type.toLowerCase().replace(/_/g, ' ')} number, which cannot receive SMS` };
  return { number: parsed.number };
}
