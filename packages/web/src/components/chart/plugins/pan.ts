import type uPlot from "uplot";

/**
 * Shift + drag on the plot pans both axes: the data follows the pointer. Plain drags are left
 * to the cursor (no drag-to-zoom: the wheel zooms).
 */
export function panPlugin(): uPlot.Plugin {
  return {
    hooks: {
      ready: (u) => {
        u.over.addEventListener("mousedown", (down) => {
          if (!down.shiftKey || down.button !== 0) return;
          const { x, y } = u.scales;
          if (x?.min == null || x.max == null || y?.min == null || y.max == null) return;
          down.preventDefault();
          down.stopPropagation();
          const start = { xMin: x.min, xMax: x.max, yMin: y.min, yMax: y.max };
          const plot = u.over.getBoundingClientRect();
          const xPerPx = (start.xMax - start.xMin) / plot.width;
          const yPerPx = (start.yMax - start.yMin) / plot.height;
          u.root.classList.add("chart--panning");
          const move = (e: MouseEvent) => {
            const dx = (e.clientX - down.clientX) * xPerPx;
            const dy = (e.clientY - down.clientY) * yPerPx;
            u.batch(() => {
              u.setScale("x", { min: start.xMin - dx, max: start.xMax - dx });
              u.setScale("y", { min: start.yMin + dy, max: start.yMax + dy });
            });
          };
          const up = () => {
            u.root.classList.remove("chart--panning");
            document.removeEventListener("mousemove", move);
            document.removeEventListener("mouseup", up);
          };
          document.addEventListener("mousemove", move);
          document.addEventListener("mouseup", up);
        });
      },
    },
  };
}
