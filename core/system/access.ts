/** How scripts reach this core over REST; set by whoever hosts the HTTP server. */
export interface ApiAccess {
  url: string;
  token: () => string;
  /** Where the token comes from, in words. */
  source: string;
  /** Makes a new token; refused when the token is fixed by TERMWISE_API_TOKEN. */
  regenerate: () => string;
}
