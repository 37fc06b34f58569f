// My City's wire types as the browser uses them (mirrors games/my-city/src/wire.rs;
// the generated MyCity* declarations in types.gen.d.ts have the same shapes).
export type Color = 'residential' | 'public' | 'industrial' | 'church';
export type Terrain = 'mountain' | 'forest' | 'plain' | 'trees' | 'rocks' | 'well' | 'gold';
export type Cell = { x: number; y: number };
export type Move =
  | { type: 'place'; x: number; y: number; rotation: number }
  | { type: 'pass' }
  | { type: 'end_participation' };
export type RiverEdge = { x: number; y: number; side: 'east' | 'south' };
export type BoardInfo = {
  width: number;
  height: number;
  terrain: Terrain[];
  west_bank: boolean[];
  river: RiverEdge[];
  gold: Cell[];
};
export type PieceInfo = { id: number; color: Color; cells: Cell[] };
export type Card = { type: 'building'; piece: number; color: Color } | { type: 'blocking' };
export type Placement = {
  piece: number;
  color: Color;
  x: number;
  y: number;
  rotation: number;
  cells: Cell[];
  round: number;
};
export type ScoreBreakdown = {
  start: number;
  passes: number;
  gold: number;
  trees: number;
  rocks: number;
  empty: number;
  residential: number;
  public: number;
  industrial: number;
  churches: number;
  wells: number;
  total: number;
};
export type PlayerView = {
  seat: number;
  active: boolean;
  decided: boolean;
  points: number;
  gold_bonus: boolean;
  placements: Placement[];
  score: ScoreBreakdown;
  visible_by_row: number[];
};
export type EndReason = 'all_ended' | 'deck_exhausted';
export type View = {
  seat: number | null;
  board: BoardInfo;
  pieces: PieceInfo[];
  round: number;
  card: Card | null;
  blocked: Card | null;
  revealed: Card[];
  deck_count: number;
  players: PlayerView[];
  awaiting: number[];
  decided: number[];
  my_decision: Move | null;
  can_pass: boolean;
  gold_claimed: boolean;
  game_over: boolean;
  end_reason: EndReason | null;
  final_scores: ScoreBreakdown[] | null;
  winners: number[];
};
export type Action = 'place' | 'pass' | 'end_participation';
export type RevealedDecision = { seat: number; action: Action; placement: Placement | null; timed_out: boolean };
export type Event =
  | { type: 'card_revealed'; round: number; card: Card; deck_count: number }
  | { type: 'card_blocked'; card: Card }
  | { type: 'decided'; seat: number }
  | { type: 'decisions_revealed'; round: number; decisions: RevealedDecision[] }
  | { type: 'gold_bonus'; seats: number[]; points: number }
  | { type: 'game_over'; reason: EndReason; scores: ScoreBreakdown[]; winners: number[] };
