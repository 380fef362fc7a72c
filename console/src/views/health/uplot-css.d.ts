/** uPlot's stylesheet, imported for esbuild to bundle into `app.css` (issue #22 § Health). */
declare module 'uplot/dist/uPlot.min.css';
