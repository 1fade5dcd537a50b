// A strict TypeScript consumer of relpos/figure (Node, no DOM): `tsc --strict --noEmit` must accept
// it, and reject the lines marked @ts-expect-error.
import { load } from 'relpos';
import {
  encodeFigure,
  heatmapFigure,
  viewFigure,
  writeFigure,
  type FigureViewOptions,
  type HeatmapFigure,
} from 'relpos/figure';

export async function figures(): Promise<void> {
  const rp = await load();
  const figure: HeatmapFigure = heatmapFigure(rp.bias('alibi', { n: 8, heads: 2 }), { head: 1, colormap: 'magma' });
  const png: Uint8Array = encodeFigure(figure, 'png', { scale: 2 });
  const csv: string = encodeFigure(figure, 'csv');
  const options: FigureViewOptions = { scheme: 'rope', view: 'weights', n: 16, causal: true, base: 10000 };
  const { call, tensor } = viewFigure(rp, options);
  const { format } = await writeFigure('rope.svg', figure, { size: 200 });
  console.log(png.length, csv.length, call.call, tensor.shape, format);
  // @ts-expect-error: not a colour map
  heatmapFigure(rp.bias('alibi', { n: 8 }), { colormap: 'jet' });
  // @ts-expect-error: not a view
  viewFigure(rp, { scheme: 'alibi', view: 'heat' });
  // @ts-expect-error: a view needs a scheme
  viewFigure(rp, { view: 'bias' });
}
