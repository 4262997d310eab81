import { mailLayout } from '../../src/platform/outbound/mail-layout';
import { contrastWithWhite, MIN_CONTRAST, readableOnWhite } from '../../src/platform/web/colour';

describe('an organisation’s colour on white', () => {
  it('when white text reads on it, then it is kept (lower case)', () => {
    expect(readableOnWhite('#1A5E20')).toBe('#1a5e20');
    expect(readableOnWhite('#0b57d0')).toBe('#0b57d0');
  });

  it.each(['#ffcc00', '#ffffff', '#7fdbff', '#ff4136'])(
    'when white text would not read on %s, then it is darkened until it does, keeping its hue',
    (colour) => {
      const shown = readableOnWhite(colour)!;
      expect(shown).not.toBe(colour);
      expect(contrastWithWhite(shown)).toBeGreaterThanOrEqual(MIN_CONTRAST);
      const [r, g, b] = [1, 3, 5].map((i) => Number.parseInt(shown.slice(i, i + 2), 16));
      const [r0, g0, b0] = [1, 3, 5].map((i) => Number.parseInt(colour.slice(i, i + 2), 16));
      // Each channel shrinks by the same factor: the largest stays the largest.
      if (r0! > g0! && r0! > b0!) expect(r).toBeGreaterThanOrEqual(Math.max(g!, b!));
    },
  );

  it.each([null, undefined, '', 'green', '#12345', '#1234567', 'url(x)'])(
    'when the colour is %p, then there is none (the product’s own is used)',
    (colour) => {
      expect(readableOnWhite(colour)).toBeNull();
    },
  );

  it('when an e-mail is laid out in a light colour, then its button is darkened; without one, the product’s blue', () => {
    const message = (colour?: string) =>
      mailLayout({
        language: 'en',
        from: 'Peeters',
        paragraphs: ['Hello'],
        button: { label: 'Open', url: 'https://desk.example.test/action/x' },
        ...(colour ? { brand: { colour } } : {}),
      }).html;
    expect(message('#ffcc00')).toContain(`background:${readableOnWhite('#ffcc00')}`);
    expect(message()).toContain('background:#0b57d0');
    expect(message('#1a5e20')).toContain('background:#1a5e20');
  });
});
