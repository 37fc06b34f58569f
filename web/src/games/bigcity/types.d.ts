// Big City's wire types as the browser uses them (mirrors games/big-city/src/wire.rs).
export type Piece =
  | 'residence_single' | 'residence_double' | 'residence_triple'
  | 'business_single' | 'business_double' | 'business_triple'
  | 'city_hall' | 'church' | 'cinema' | 'post_office' | 'bank' | 'shopping_center'
  | 'lincoln_park' | 'central_park' | 'stanford_corporation' | 'rockwell_industries';

export type Segment = { x1: number; y1: number; x2: number; y2: number };
export type TradePick = { give: number; seat: number; index: number };

export type Move =
  | { type: 'place_neighborhood'; neighborhood: number; x: number; y: number; rotation: number }
  | { type: 'build'; piece: Piece; cells: number[] }
  | { type: 'streetcar'; segment: Segment }
  | { type: 'done' }
  | { type: 'exchange'; cards: number[] }
  | { type: 'pass' }
  | { type: 'discard_useless'; card: number }
  | { type: 'draw'; stack: number }
  | { type: 'trade_offer'; cards: number[]; wanted: number[] }
  | { type: 'trade_answer'; cards: number[] }
  | { type: 'trade_accept'; picks: TradePick[] };

export type Options = {
  trade_cards: boolean;
  trade_window_ms: number;
  useless_must_be_exchanged: boolean;
  single_streetcar_line: boolean;
  limited_streetcar_line: boolean;
  limited_card_drawing: boolean;
};

export type TileView = { neighborhood: number; x: number; y: number; rotation: number };
export type CellView = { property: number; x: number; y: number; outskirts: boolean; building: number | null };
export type BuildingView = { piece: Piece; cells: number[]; owner: number; points: number };
export type SupplyView = { piece: Piece; left: number };
export type HandView = { seat: number; count: number; backs: number[]; cards: number[] | null };
export type TradeAnswerView = { seat: number; neighborhoods: number[] };
export type TradeView = {
  seat: number;
  offered: number[];
  offered_cards: number[] | null;
  wanted: number[];
  answered: number[];
  waiting: number[];
  answers: TradeAnswerView[];
};
export type EndReason = 'city_complete' | 'all_passed';
export type Phase =
  | { type: 'starting_city'; seat: number; neighborhoods: number[] }
  | { type: 'action'; seat: number }
  | { type: 'second_streetcar'; seat: number }
  | { type: 'drawing'; seat: number; remaining: number }
  | { type: 'trade_answers'; seat: number; window_ms: number }
  | { type: 'trade_accept'; seat: number }
  | { type: 'trade_exchange'; seat: number }
  | { type: 'game_over'; reason: EndReason };

export type View = {
  viewer: number | null;
  seats: number;
  options: Options;
  first_seat: number;
  phase: Phase;
  turn: number | null;
  tiles: TileView[];
  cells: CellView[];
  unplaced: number[];
  buildings: BuildingView[];
  streetcars: Segment[];
  streetcars_left: number;
  supply: SupplyView[];
  scores: number[];
  hands: HandView[];
  stacks: number[];
  discards: number[];
  drawn_this_turn: number[];
  drawable: number[];
  useless_discarded: number;
  passes_in_a_row: number;
  timeouts_in_a_row: number[];
  trade: TradeView | null;
  turn_number: number;
  winners: number[];
};

export type EventKind =
  | { type: 'turn_started'; seat: number }
  | { type: 'neighborhood_placed'; seat: number; neighborhood: number; x: number; y: number; rotation: number }
  | { type: 'built'; seat: number; piece: Piece; cells: number[]; points: number }
  | { type: 'streetcar_placed'; seat: number; segment: Segment }
  | { type: 'useless_discarded'; seat: number; card: number }
  | { type: 'exchanged'; seat: number; stacks: number[] }
  | { type: 'drew'; seat: number; stack: number }
  | { type: 'draws_skipped'; seat: number; count: number }
  | { type: 'passed'; seat: number }
  | { type: 'timed_out'; seat: number }
  | { type: 'trade_offered'; seat: number; neighborhoods: number[]; wanted: number[] }
  | { type: 'trade_answered'; seat: number; count: number }
  | { type: 'trade_answers_revealed'; answers: TradeAnswerView[] }
  | { type: 'traded'; from: number; to: number; given: number; received: number }
  | { type: 'trade_failed'; seat: number }
  | { type: 'game_over'; reason: EndReason; scores: number[]; winners: number[] };

export type Event = { text: string; kind: EventKind };
