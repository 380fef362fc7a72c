/**
 * One live chart of the health page (issue #22 § Health), drawn by uPlot (a small, well-kept
 * chart library: no canvas code of our own). The chart is made once per set of series and fed
 * new columns on every poll.
 */
import { useEffect, useRef } from 'preact/hooks';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import type { Columns } from './series';

const COLORS = ['#2759c7', '#d92d20', '#12b76a', '#f79009', '#7a5af8', '#0ba5ec', '#ee46bc', '#667085', '#1d2330'];

/** A line chart titled `title` with one series per label in `series`; `data` is x (seconds) then one column per series. issue #22 § Health. */
export function Plot({ title, series, data, unit }: { title: string; series: readonly string[]; data: Columns; unit: string }) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<uPlot | null>(null);
  const key = series.join('\u0000');

  useEffect(() => {
    const el = box.current!;
    const u = new uPlot(
      {
        title,
        width: Math.max(320, Math.min(640, el.clientWidth || 480)),
        height: 200,
        series: [{}, ...series.map((label, i) => ({ label, stroke: COLORS[i % COLORS.length], width: 1.5, spanGaps: false }))],
        axes: [{}, { label: unit, size: 60 }],
        scales: { y: { range: (_u, min, max) => [Math.min(0, min ?? 0), Math.max(1, max ?? 1)] } },
      },
      data as uPlot.AlignedData,
      el,
    );
    chart.current = u;
    return () => {
      u.destroy();
      chart.current = null;
    };
  }, [key, title, unit]);

  useEffect(() => {
    chart.current?.setData(data as uPlot.AlignedData);
  }, [data]);

  return <div class="health-plot" ref={box} data-title={title} data-points={data[0].length} />;
}
