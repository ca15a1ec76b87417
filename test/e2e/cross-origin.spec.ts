import { createServer, type Server } from 'node:http';
import { test, expect, signIn } from './fixtures';

/**
 * Another web server on 127.0.0.1 (another port: the same site to a browser, so it receives the
 * session cookie) tries to read and write through the signed-in user's browser.
 */
const ATTACK_PAGE = (target: string): string => `<!doctype html><title>attacker</title><body>
<form id="form" method="POST" action="${target}rpc/doctors-create" enctype="multipart/form-data" target="sink">
  <input name="name" value="Dr. Form"><input name="allowed_courses" value="[]">
</form>
<iframe name="sink"></iframe>
<script>
  const results = {};
  async function attempt(name, run) {
    try { results[name] = await run(); } catch (error) { results[name] = 'failed: ' + error.message; }
  }
  (async () => {
    const form = new FormData();
    form.append('file', new Blob(['room,seats\\nEvil Hall,10\\n']), 'rooms.csv');
    await attempt('no-cors upload', () => fetch('${target}data/upload/rooms', { method: 'POST', mode: 'no-cors', credentials: 'include', body: form }).then((r) => r.type));
    await attempt('no-cors json', () => fetch('${target}rpc/doctors-create', { method: 'POST', mode: 'no-cors', credentials: 'include', headers: { 'content-type': 'text/plain' }, body: JSON.stringify({ name: 'Dr. NoCors', allowed_courses: [] }) }).then((r) => r.type));
    await attempt('read settings', () => fetch('${target}settings', { credentials: 'include' }).then((r) => r.text()));
    await attempt('read with header', () => fetch('${target}data/courses', { credentials: 'include', headers: { 'X-Termwise': '1' } }).then((r) => r.text()));
    document.getElementById('form').submit();
    await new Promise((resolve) => setTimeout(resolve, 500));
    window.results = results;
  })();
</script></body>`;

test('a page on another local port can neither read nor write through the signed-in browser', async ({ page, app }) => {
  await signIn(page, app);
  const cookiesSeen: string[] = [];
  const attacker: Server = createServer((request, response) => {
    if (request.headers.cookie) cookiesSeen.push(request.headers.cookie);
    response.writeHead(200, { 'content-type': 'text/html' }).end(ATTACK_PAGE(app.url));
  });
  await new Promise<void>((resolve) => attacker.listen(0, '127.0.0.1', resolve));
  const address = attacker.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  try {
    const attackPage = await page.context().newPage();
    await attackPage.goto(`http://127.0.0.1:${port}/`);
    await attackPage.waitForFunction(() => (window as unknown as { results?: unknown }).results !== undefined, undefined, { timeout: 15_000 });
    const results = await attackPage.evaluate(() => (window as unknown as { results: Record<string, string> }).results);
    // The reads are refused by the browser (no CORS grant): nothing comes back to the page.
    expect(results['read settings']).toMatch(/^failed/);
    expect(results['read with header']).toMatch(/^failed/);

    // The browser did hand the session cookie to the other port; replayed without the key, it opens nothing.
    expect(cookiesSeen.join(';')).toMatch(/termwise_session_\d+=/);
    for (const cookie of cookiesSeen) {
      const replay = await fetch(new URL('data/courses', app.url), { headers: { cookie, 'x-termwise': '1' } });
      expect(replay.status).toBe(401);
    }

    // Nothing was written: no doctor, no room.
    const doctors = await app.api<{ name: string }[]>('/scheduler/doctors');
    expect(doctors.map((d) => d.name)).toEqual([]);
    const rooms = await app.api<{ rooms: { name: string }[] } | { name: string }[]>('/scheduler/rooms');
    expect(JSON.stringify(rooms)).not.toContain('Evil Hall');

    // The app's own page still works in the same browser.
    await page.reload();
    await expect(page.getByTestId('nav-dashboard')).toBeVisible();
  } finally {
    attacker.close();
  }
});
