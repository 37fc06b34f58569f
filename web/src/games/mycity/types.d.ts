// My City's wire types as the browser uses them: the declarations generated from
// games/my-city/src/wire.rs (types.gen.d.ts), under short names.
import type * as G from '../../types.gen';

export type Color = G.MyCityColor;
export type Terrain = G.MyCityTerrain;
export type Cell = G.MyCityCell;
export type Move = G.MyCityMove;
export type RiverEdge = G.MyCityRiverEdge;
export type BoardInfo = G.MyCityBoardInfo;
export type PieceInfo = G.MyCityPieceInfo;
export type Card = G.MyCityCard;
export type Placement = G.MyCityPlacement;
export type ScoreBreakdown = G.MyCityScoreBreakdown;
export type PlayerView = G.MyCityPlayerView;
export type EndReason = G.MyCityEndReason;
export type View = G.MyCityView;
export type Action = G.MyCityAction;
export type RevealedDecision = G.MyCityRevealedDecision;
export type Event = G.MyCityEvent;
