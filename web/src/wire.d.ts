// The wire types the browser uses, all generated from the Rust types
// (types.gen.d.ts), plus a few client-side names for convenience.
export * from './types.gen';

import type { ServerMsg, ClientMsg } from './types.gen';

export type Welcome = Extract<ServerMsg, { type: 'welcome' }>;
export type UpdateMsg = Extract<ServerMsg, { type: 'update' }>;
export type ErrorMsg = Extract<ServerMsg, { type: 'error' }>;
export type MoveMsg = Extract<ClientMsg, { type: 'move' }>;
