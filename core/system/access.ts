/** How scripts reach this core over REST; set by whoever hosts the HTTP server. */
export interface ApiAccess {
  url: string;
  token: () => string;
  /** Where the token comes from, in words. */
  source: string;
  /** Whether `regenerate` can make a new token (not when TERMWISE_API_TOKEN fixes it). */
  regenerable: boolean;
  /** Makes a new token; refused when the token is fixed by TERMWISE_API_TOKEN. */
  regenerate: () => string | Promise<string>;
}
