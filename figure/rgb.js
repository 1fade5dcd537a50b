// Parses the colour strings d3-scale-chromatic returns ("#rrggbb" or "rgb(r, g, b)").
export function rgb(color) {
  if (color.startsWith('#')) {
    const v = Number.parseInt(color.slice(1, 7), 16);
    return [(v >> 16) & 255, (v >> 8) & 255, v & 255];
  }
  const parts = color.match(/[\d.]+/g) ?? ['0', '0', '0'];
  return parts.slice(0, 3).map(Number);
}
