/** What other features may use of rooms (besides its repo): their import. */
export { importRooms, storeListedRooms } from './service';
