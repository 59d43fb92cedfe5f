// Reading a Hugging Face config.json into the engine's architecture fields. The engine does it
// (src/engine/model/hf_config.cpp): its JSON reader (depth bounded, duplicate keys refused, echoed
// text cut short), its checks and its defaults. The page only hands the text over.

import type { TrainscopeEngineModule } from './engine-module';
import type { Architecture } from './types';

export interface ConfigProblem {
  /** The config.json key the problem is about (or "config.json" for the whole file). */
  field: string;
  message: string;
}

export interface ConfigResult {
  architecture: Architecture | null;
  /** A short name for the model, from _name_or_path / architectures / model_type. */
  name: string;
  errors: ConfigProblem[];
  /** Things read or assumed that the learner may want to know about. */
  notes: string[];
}

export function parseHfConfig(text: string, engine: Pick<TrainscopeEngineModule, 'modelFromHfConfig'>): ConfigResult {
  return JSON.parse(engine.modelFromHfConfig(text)) as ConfigResult;
}
