// Building Cities' wire types as the browser uses them: the declarations generated
// from games/building-cities (types.gen.d.ts), under short names.
import type * as G from '../../types.gen';

export type BankReason = G.BuildingCitiesBankReason;
export type Block = G.BuildingCitiesBlock;
export type Bonus = G.BuildingCitiesBonus;
export type Building = G.BuildingCitiesBuilding;
export type Card = G.BuildingCitiesCard;
export type Category = G.BuildingCitiesCategory;
export type City = G.BuildingCitiesCity;
export type Colour = G.BuildingCitiesColour;
export type District = G.BuildingCitiesDistrict;
export type Economy = G.BuildingCitiesEconomy;
export type Effect = G.BuildingCitiesEffect;
export type EndReason = G.BuildingCitiesEndReason;
export type Event = G.BuildingCitiesEvent;
export type EventKind = G.BuildingCitiesEventKind;
export type Footprint = G.BuildingCitiesFootprint;
export type Goal = G.BuildingCitiesGoal;
export type Good = G.BuildingCitiesGood;
export type GridSide = G.BuildingCitiesGridSide;
export type Handbook = G.BuildingCitiesHandbook;
export type Mode = G.BuildingCitiesMode;
export type Move = G.BuildingCitiesMove;
export type Objective = G.BuildingCitiesObjective;
export type Options = G.BuildingCitiesOptions;
export type Phase = G.BuildingCitiesPhase;
export type PlayerView = G.BuildingCitiesPlayerView;
export type Refusal = G.BuildingCitiesRefusal;
export type Requirement = G.BuildingCitiesRequirement;
export type Rotation = G.BuildingCitiesRotation;
export type Rule = G.BuildingCitiesRule;
export type Sea = G.BuildingCitiesSea;
export type Status = G.BuildingCitiesStatus;
export type Target = G.BuildingCitiesTarget;
export type Text = G.BuildingCitiesText;
export type Tile = G.BuildingCitiesTile;
export type Variant = G.BuildingCitiesVariant;
export type View = G.BuildingCitiesView;

export type Preview = G.BuildingCitiesPreview;
/** A tile move as the server lists it, with what it would bring (`preview`). */
export type TileMove = Extract<Move, { type: 'tile' }>;
