// Big City's wire types under the short names the board code uses. They are the
// declarations generated from games/big-city/src/wire.rs (../../types.gen.d.ts).
export type {
  BigCityPiece as Piece,
  BigCitySegment as Segment,
  BigCityTradePick as TradePick,
  BigCityMove as Move,
  BigCityOptions as Options,
  BigCityTileView as TileView,
  BigCityTileCell as TileCell,
  BigCityCellView as CellView,
  BigCityBuildingView as BuildingView,
  BigCitySupplyView as SupplyView,
  BigCityHandView as HandView,
  BigCityTradeAnswerView as TradeAnswerView,
  BigCityTradeView as TradeView,
  BigCityEndReason as EndReason,
  BigCityPhase as Phase,
  BigCityView as View,
  BigCityEventKind as EventKind,
  BigCityEvent as Event,
} from '../../types.gen';
