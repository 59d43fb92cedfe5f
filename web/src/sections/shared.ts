// Small helpers several sections share: slider stops and labels for the engine's choices.

/** Powers of two from `min` to `max`. */
export function powersOf(min: number, max: number): number[] {
  const stops: number[] = [];
  for (let value = min; value <= max; value *= 2) stops.push(value);
  return stops;
}

/** A linear slider scale in steps of `step` (rounded so 0.1 + 0.2 shows as 0.3). */
export function linearScale(min: number, max: number, step: number) {
  const steps = Math.round((max - min) / step);
  return {
    steps,
    valueAt: (position: number) => Number((min + Math.min(steps, Math.max(0, Math.round(position))) * step).toFixed(6)),
    positionOf: (value: number) => Math.min(steps, Math.max(0, Math.round((value - min) / step))),
  };
}
