// Big Cityz's wire types as the browser uses them: the declarations generated from
// games/big-cityz/src/wire.rs (types.gen.d.ts), under short names.
import type * as G from '../../types.gen';

export type CityCard = G.BigCityzCityCard;
export type Color = G.BigCityzColor;
export type Continent = G.BigCityzContinent;
export type EndReason = G.BigCityzEndReason;
export type Event = G.BigCityzEvent;
export type EventKind = G.BigCityzEventKind;
export type Evidence = G.BigCityzEvidence;
export type Fact = G.BigCityzFact;
export type Judgment = G.BigCityzJudgment;
export type Move = G.BigCityzMove;
export type Options = G.BigCityzOptions;
export type Phase = G.BigCityzPhase;
export type RiskView = G.BigCityzRiskView;
export type BoardView = G.BigCityzBoardView;
export type ScoreChange = G.BigCityzScoreChange;
export type Slot = G.BigCityzSlot;
export type Square = G.BigCityzSquare;
export type Statement = G.BigCityzStatement;
export type View = G.BigCityzView;
