import http from 'node:http';
import { createClient, verifyWebhook } from '@actiondesk/client';

const client = createClient({ baseUrl: process.env.ACTIONDESK_URL, apiKey: process.env.ACTIONDESK_API_KEY });
const { secret } = await client.webhooks.create({
  url: process.env.RECEIVER_URL,
  events: ['sessionrequest.sent'],
});

// A delivery is trusted once its signature and timestamp check out; answer it 2xx at once.
const sent = new Promise((resolve) => {
  const server = http.createServer(async (req, res) => {
    const chunks = [];
    for await (const chunk of req) chunks.push(chunk);
    try {
      const event = verifyWebhook(req.headers, Buffer.concat(chunks), secret);
      res.writeHead(204).end();
      if (event.type === 'sessionrequest.sent') server.close(() => resolve(event));
    } catch {
      res.writeHead(400).end();
    }
  });
  server.listen(Number(process.env.RECEIVER_PORT));
});

const contact = await client.customers.create({ data: { Voornaam: 'Marie', Email: 'marie@example.com' } });
const [template] = await client.questionLists.list();
const action = await client.sessionRequests.create({
  type: 'qlist',
  customerId: contact._id,
  questionListIds: [template._id],
  notificationEmail: { send: true },
});
const event = await sent;
console.log(`${event.data.sessionRequest.code} sent to ${contact.data.Email}: ${action.url}`);
