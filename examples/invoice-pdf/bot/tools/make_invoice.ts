import { defineTool } from "@cursor/bdk/tools";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { z } from "zod";

export default defineTool({
  description: "Writes a one-page invoice PDF for a customer.",
  inputSchema: z.object({ customer: z.string() }),
  effect: "read",
  async execute({ customer }) {
    const pdf = await PDFDocument.create();
    const page = pdf.addPage([300, 200]);
    page.drawText(`Invoice for ${customer}`, { x: 20, y: 150, font: await pdf.embedFont(StandardFonts.Helvetica) });
    const bytes = await pdf.save();
    return { bytes: bytes.length, header: new TextDecoder().decode(bytes.slice(0, 5)) };
  },
});
