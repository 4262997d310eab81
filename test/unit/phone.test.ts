import { isPhoneRegion, smsNumber } from '../../src/platform/outbound/phone';

const unreadable = (region: string) => ({
  problem: `cannot be read as a phone number (numbers without a country code are read as ${region})`,
});

describe('phone numbers for SMS (smsNumber)', () => {
  it.each([
    ['0470 12 34 56', 'BE', '+32470123456'],
    ['0470123456', 'BE', '+32470123456'],
    ['0032470123456', 'BE', '+32470123456'],
    ['  +32470123456  ', 'BE', '+32470123456'],
    ['06 12345678', 'NL', '+31612345678'],
    ['06-12345678', 'NL', '+31612345678'],
    ['06 12 34 56 78', 'FR', '+33612345678'],
  ])(
    'when a mobile number %s is written as people do in %s, then it comes back in E.164 (%s)',
    (raw, region, e164) => {
      expect(smsNumber(raw, region)).toEqual({ number: e164 });
    },
  );

  it('when words surround the number (gsm, tel.:), then they are ignored', () => {
    expect(smsNumber('0478 12 34 56 (gsm)', 'BE')).toEqual({ number: '+32478123456' });
    expect(smsNumber('tel.: 0478/12.34.56', 'BE')).toEqual({ number: '+32478123456' });
  });

  it('when the number carries its country code, then the region does not change how it is read', () => {
    expect(smsNumber('+32 470 12 34 56', 'NL')).toEqual({ number: '+32470123456' });
    expect(smsNumber('+32 (0)470 12 34 56', 'NL')).toEqual({ number: '+32470123456' });
    expect(smsNumber('+44 7911 123456', 'BE')).toEqual({ number: '+447911123456' });
  });

  it('when a number without country code is read in the wrong region, then it is refused naming the region', () => {
    expect(smsNumber('0470123456', 'NL')).toEqual(unreadable('NL'));
    expect(smsNumber('0470123456', 'BE')).toEqual({ number: '+32470123456' });
  });

  it.each([
    ['abc', 'BE'],
    ['', 'BE'],
    ['   ', 'BE'],
    ['0470', 'BE'],
    ['0470 12 34 56 78', 'BE'],
  ])('when %j is not a phone number of %s, then the problem says it cannot be read', (raw, region) => {
    expect(smsNumber(raw, region)).toEqual(unreadable(region));
  });

  it.each([
    ['02 287 41 11', 'BE', 'fixed line'],
    ['09 264 11 11', 'BE', 'fixed line'],
    ['+32 2 287 41 11', 'NL', 'fixed line'],
    ['020 123 4567', 'NL', 'fixed line'],
    ['01 23 45 67 89', 'FR', 'fixed line'],
    ['0800 12 345', 'BE', 'toll free'],
    ['+33 8 00 12 34 56', 'BE', 'toll free'],
    ['0900 12 345', 'BE', 'premium rate'],
  ])('when %s (%s) is a valid %s number, then it is refused because it takes no SMS', (raw, region, kind) => {
    expect(smsNumber(raw, region)).toEqual({
      problem: `is a ${kind} number, which cannot receive SMS`,
    });
  });
});

describe('phone regions (isPhoneRegion)', () => {
  it('when a region is a known two-letter code in capitals, then it is one; anything else is not', () => {
    for (const region of ['BE', 'NL', 'FR', 'DE', 'LU', 'GB', 'US']) expect(isPhoneRegion(region)).toBe(true);
    for (const region of ['XX', 'be', 'B', 'BEL', '', 'EU']) expect(isPhoneRegion(region)).toBe(false);
  });
});
