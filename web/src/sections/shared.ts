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

export function precisionLabel(value: string): string {
  const labels: Record<string, string> = {
    fp32: 'FP32 (4 bytes)', bf16: 'BF16 (2 bytes)', fp16: 'FP16 (2 bytes)', fp8: 'FP8 (1 byte)', int8: 'INT8 (1 byte)', int4: 'INT4 (half a byte)',
  };
  return labels[value] ?? value;
}
