"use client";
// Pass rate per case across versions (or runs), one line per case, with the same numbers as a
// table for screen readers.
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { PassRatePoint } from "./eval-history-model";

// Tailwind's 600s, in an order where neighbours differ in hue.
const palette = ["#4f46e5", "#059669", "#e11d48", "#d97706", "#0891b2", "#7c3aed", "#65a30d", "#db2777"];

export function PassRateChart({ caseIds, points }: { caseIds: string[]; points: PassRatePoint[] }) {
  return (
    <figure data-testid="eval-chart" data-cases={caseIds.length} data-points={points.length} className="space-y-1">
      <div className="h-64 w-full" aria-hidden>
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={points} margin={{ top: 8, right: 16, bottom: 0, left: -16 }}>
            <CartesianGrid strokeDasharray="3 3" stroke="#d4d4d8" />
            <XAxis dataKey="label" tick={{ fontSize: 12 }} />
            <YAxis domain={[0, 100]} unit="%" tick={{ fontSize: 12 }} />
            <Tooltip formatter={(value) => (value === null ? "no results" : `${value}%`)} />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {caseIds.map((caseId, i) => (
              <Line
                key={caseId}
                name={caseId}
                // A function, not the id as a path: ids hold dots and slashes.
                dataKey={(point: PassRatePoint) => point.values[caseId]}
                stroke={palette[i % palette.length]}
                strokeWidth={2}
                dot={{ r: 3 }}
                connectNulls
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      <figcaption className="text-xs text-zinc-500">Pass rate per case: passed iterations over all of them.</figcaption>
      <table className="sr-only">
        <caption>Pass rate per case</caption>
        <thead>
          <tr>
            <th scope="col">Case</th>
            {points.map((point) => (
              <th key={point.key} scope="col">
                {point.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {caseIds.map((caseId) => (
            <tr key={caseId}>
              <th scope="row">{caseId}</th>
              {points.map((point) => (
                <td key={point.key}>{point.values[caseId] === null ? "–" : `${point.values[caseId]}%`}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
