import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isAllowedExternalUrl, isAppUrl, resolveAppFile, viewMenuRoles } from '../../electron/security';
import { parseWindowState, DEFAULT_WINDOW } from '../../electron/window-state';

const root = resolve('/opt/termwise/dist/renderer');

describe('app:// path guard', () => {
  it('maps app URLs to files under the renderer folder', () => {
    expect(resolveAppFile(root, 'app://termwise/')).toBe(join(root, 'index.html'));
    expect(resolveAppFile(root, 'app://termwise/index.html')).toBe(join(root, 'index.html'));
    expect(resolveAppFile(root, 'app://termwise/assets/index-abc.js?x=1')).toBe(join(root, 'assets', 'index-abc.js'));
  });

  it.each([
    'app://termwise/../secret.txt',
    'app://termwise/%2e%2e/secret.txt',
    'app://termwise/assets/%2e%2e/%2e%2e/etc/passwd',
    'app://termwise/assets/..%2f..%2f..%2fetc%2fpasswd',
  ])('never leaves the renderer folder for %s', (url) => {
    const file = resolveAppFile(root, url);
    if (file !== null) expect(file.startsWith(`${root}/`)).toBe(true);
    expect(file).not.toBe('/etc/passwd');
  });

  it.each([
    'app://termwise/..%2f..%2f..%2f..%2fetc%2fpasswd',
    'app://termwise/..%5c..%5cwindows',
    'app://termwise/%00index.html',
    'app://other/index.html',
    'file:///etc/passwd',
    'https://termwise/index.html',
  ])('refuses %s', (url) => {
    expect(resolveAppFile(root, url)).toBeNull();
  });
});

describe('navigation and external links', () => {
  it('recognises only the app origin', () => {
    expect(isAppUrl('app://termwise/index.html#/scheduler')).toBe(true);
    expect(isAppUrl('app://termwise.evil/index.html')).toBe(false);
    expect(isAppUrl('http://127.0.0.1:4610/')).toBe(false);
    expect(isAppUrl('not a url')).toBe(false);
  });

  it('opens only allow-listed http(s) links externally', () => {
    expect(isAllowedExternalUrl('https://github.com/termwise')).toBe(true);
    expect(isAllowedExternalUrl('https://evil.example/')).toBe(false);
    expect(isAllowedExternalUrl('file:///etc/passwd')).toBe(false);
    expect(isAllowedExternalUrl('javascript:alert(1)')).toBe(false);
    expect(isAllowedExternalUrl('https://user:pw@github.com/')).toBe(false);
  });
});

describe('window state', () => {
  it('restores a saved position and size, enforcing a minimum', () => {
    expect(parseWindowState('{"x":10,"y":20,"width":1400,"height":900,"maximized":true}')).toEqual({ x: 10, y: 20, width: 1400, height: 900, maximized: true });
    expect(parseWindowState('{"width":300,"height":200}')).toEqual({ width: 1024, height: 700, maximized: false });
    expect(parseWindowState('garbage')).toEqual(DEFAULT_WINDOW);
    expect(parseWindowState(null)).toEqual(DEFAULT_WINDOW);
  });
});

describe('developer tools', () => {
  it('are offered in development only, never in an installed app', () => {
    expect(viewMenuRoles(true)).toContain('toggleDevTools');
    expect(viewMenuRoles(false)).not.toContain('toggleDevTools');
    expect(viewMenuRoles(false)).toContain('reload');
  });
});
