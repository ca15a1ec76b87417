-- Sign-in attempts per client address, counted in the store so that every server process on one
-- database counts them together (a window of attempts per address).
CREATE TABLE sign_in_addresses (
  address      TEXT PRIMARY KEY,
  window_start TEXT NOT NULL,
  attempts     INTEGER NOT NULL
);
