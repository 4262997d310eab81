import { renderReport } from '../../src/modules/sessions/report';
import { pdfText } from '../support/binary';

describe('the questionnaire report', () => {
  it('when names and answers are in Polish, Greek or Cyrillic script, then the PDF holds them as written, not "?"', async () => {
    const pdf = await renderReport({
      organisation: 'Kantoor Łukasz Żółć',
      contact: 'Ελένη Παπαδοπούλου',
      templates: ['Intake'],
      submittedAt: new Date('2026-03-02T09:00:00Z'),
      language: 'en',
      timeZone: 'Europe/Brussels',
      sections: [
        {
          title: 'Gegevens — données',
          items: [
            { question: 'Name', answer: 'Дмитрий Иванов' },
            { question: 'Budget', answer: '€ 1.250,50 “quoted”' },
          ],
        },
      ],
    });
    const text = await pdfText(pdf);
    for (const expected of [
      'Kantoor Łukasz Żółć',
      'Contact: Ελένη Παπαδοπούλου',
      'Дмитрий Иванов',
      '€ 1.250,50 “quoted”',
      'Gegevens — données',
      'Page 1 / 1',
    ])
      expect(text).toContain(expected);
    expect(text).not.toContain('?');
  });
});
