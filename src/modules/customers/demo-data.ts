import { randomInt } from 'node:crypto';

const firstNames = [
  'Jan',
  'Marie',
  'Lucas',
  'Emma',
  'Noah',
  'Louise',
  'Élodie',
  'Thomas',
  'Sofie',
  'Pieter',
  'Anaïs',
  'Benoît',
  'Céline',
  'Jérôme',
  'Zoë',
  'Chloé',
  'Maarten',
  'Lotte',
  'Wout',
  'Ine',
  'Arthur',
  'Olivia',
  'Liam',
  'Mila',
  'Victor',
  'Hélène',
  'François',
  'Nathalie',
  'Koen',
  'Griet',
  'Bram',
  'Fien',
  'Seppe',
  'Noémie',
  'Rémi',
  'Ilse',
];
const lastNames = [
  'Peeters',
  'Janssens',
  'Maes',
  'Jacobs',
  'Mertens',
  'Willems',
  'Claes',
  'Goossens',
  'Wouters',
  'De Smet',
  'Dubois',
  'Lambert',
  'Dupont',
  'Martin',
  'Lefèvre',
  'Van den Broeck',
  'Vermeulen',
  'Hermans',
  'Desmet',
  'Pauwels',
  'Van Damme',
  'De Clercq',
  'Leclercq',
  'Renard',
  'Gérard',
  'Michiels',
  'Coppens',
  'Verhoeven',
];
const streets = [
  'Kerkstraat',
  'Stationsstraat',
  'Dorpstraat',
  'Nieuwstraat',
  'Molenstraat',
  'Rue de la Station',
  'Rue du Moulin',
  'Kapelstraat',
  'Schoolstraat',
  'Avenue Louise',
  'Grote Markt',
  'Veldstraat',
  'Rue Haute',
  'Lindenlaan',
];
const places: [string, string][] = [
  ['1000', 'Brussel'],
  ['2000', 'Antwerpen'],
  ['9000', 'Gent'],
  ['3000', 'Leuven'],
  ['8000', 'Brugge'],
  ['4000', 'Liège'],
  ['5000', 'Namur'],
  ['7000', 'Mons'],
  ['2800', 'Mechelen'],
  ['3500', 'Hasselt'],
  ['1300', 'Wavre'],
  ['8500', 'Kortrijk'],
  ['6000', 'Charleroi'],
  ['9300', 'Aalst'],
];

const pick = <T>(list: readonly T[]): T => list[randomInt(list.length)] as T;

function mailbox(value: string): string {
  return value
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z]+/g, '');
}

/** A plausible Belgian contact record, for demos and benchmarks. */
export function demoContactData(n: number): Record<string, string> {
  const first = pick(firstNames);
  const last = pick(lastNames);
  const [postcode, town] = pick(places);
  return {
    Voornaam: first,
    Achternaam: last,
    Email: `${mailbox(first)}.${mailbox(last)}${n}@example.be`,
    Telefoon: `+32 4${randomInt(70, 99)} ${randomInt(10, 99)} ${randomInt(10, 99)} ${randomInt(10, 99)}`,
    Straat: pick(streets),
    Huisnummer: String(randomInt(1, 250)),
    Postcode: postcode,
    Gemeente: town,
  };
}
