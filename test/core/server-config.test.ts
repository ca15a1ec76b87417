import { describe, expect, it } from 'vitest';
import { listenHostFrom, publicUrlsFrom, trustedProxiesFrom } from '../../core/config';

/** A campus server's settings from its environment: a laptop, with none set, stays as locked as ever. */
describe('campus server settings', () => {
  it('listen on 127.0.0.1, answer no other host and trust no proxy unless told', () => {
    expect(listenHostFrom({})).toBe('127.0.0.1');
    expect(publicUrlsFrom({})).toEqual([]);
    expect(trustedProxiesFrom({})).toEqual([]);
  });

  it('read the address to listen on, the public addresses and the trusted proxies', () => {
    expect(listenHostFrom({ TERMWISE_HOST: '0.0.0.0' })).toBe('0.0.0.0');
    expect(publicUrlsFrom({ TERMWISE_PUBLIC_URL: 'https://termwise.campus.edu, https://plan.campus.edu' }).map((u) => u.origin)).toEqual([
      'https://termwise.campus.edu',
      'https://plan.campus.edu',
    ]);
    expect(trustedProxiesFrom({ TERMWISE_TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8, ::1' })).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
  });

  it('refuse values that are not addresses, naming the variable', () => {
    expect(() => listenHostFrom({ TERMWISE_HOST: 'a host; rm -rf' })).toThrow(/TERMWISE_HOST/);
    expect(() => publicUrlsFrom({ TERMWISE_PUBLIC_URL: 'ftp://x.example' })).toThrow(/TERMWISE_PUBLIC_URL/);
    expect(() => publicUrlsFrom({ TERMWISE_PUBLIC_URL: 'not a url' })).toThrow(/TERMWISE_PUBLIC_URL/);
    expect(() => trustedProxiesFrom({ TERMWISE_TRUSTED_PROXIES: 'proxy.campus.edu' })).toThrow(/TERMWISE_TRUSTED_PROXIES/);
  });
});
