/** The database file inside the data folder. */
export const DATABASE_FILE = 'termwise.db';
