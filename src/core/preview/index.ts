/**
 * @module formletter preview: every message the model could cause on one ticket, decided as decide() decides it.
 */
export type { PreviewDimension, PreviewProposal, SlotOption } from "./combinations.js";
export type {
  PreviewCatalog,
  PreviewEscalations,
  PreviewMessage,
  PreviewOptions,
  TemplatePreview,
  TicketPreview,
} from "./preview.js";
export { previewTicket } from "./preview.js";
