// Building Cities' words in English and French (the sentences; names and card
// texts come from the handbook).

import { EN } from './strings/en.js';
import { FR } from './strings/fr.js';
import { REFUSALS } from './strings/refusals.js';
import { VOCABULARY } from './strings/vocabulary.js';

export const BUILDING_CITIES_STRINGS = {
  en: { ...EN, ...VOCABULARY.en, ...REFUSALS.en },
  fr: { ...FR, ...VOCABULARY.fr, ...REFUSALS.fr },
};
