import { z } from "zod";
import { defineRecords } from "../../src/index.js";

/** Garages, the vehicles each repairs and the damages of each vehicle: several of each per ticket. */
export const garageRecords = defineRecords({
  garages: z.object({ id: z.string(), name: z.string(), email: z.email(), phone: z.string() }),
  vehicles: z.object({
    id: z.string(),
    plate: z.string(),
    garageId: z.string(),
    readyOn: z.string(),
    seats: z.number(),
  }),
  damages: z.object({
    id: z.string(),
    code: z.string(),
    vehicleId: z.string(),
    estimate: z.number(),
    currency: z.string(),
    reportedAt: z.string(),
    open: z.boolean(),
  }),
});

export interface GarageTicket {
  readonly ticketId: string;
  readonly garages: { id: string; name: string; email: string; phone: string }[];
  readonly vehicles: {
    id: string;
    plate: string;
    garageId: string;
    readyOn: string;
    seats: number;
  }[];
  readonly damages: {
    id: string;
    code: string;
    vehicleId: string;
    estimate: number;
    currency: string;
    reportedAt: string;
    open: boolean;
  }[];
}

const names = ["Autohaus Weber", "Kfz Meister Braun", "Werkstatt Lindner", "Garage Okafor", "Motorhof Silva"];
const months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/**
 * A ticket with `garages` garages, `vehicles` vehicles spread over them and `damages` damages spread over
 * the vehicles; every value is unique to the ticket's number, so no two tickets share a record.
 */
export function garageTicket(n: number, garages: number, vehicles: number, damages: number): GarageTicket {
  const g = Array.from({ length: garages }, (_, i) => ({
    id: `g${n}x${i}`,
    name: `${names[(n + i) % names.length]} ${n}${String.fromCharCode(97 + i)}`,
    email: `werkstatt${n}x${i}@garage.example`,
    // Most numbers carry their country; some are written as dialled at home, without it.
    phone: i % 3 === 2 ? `030 ${4_100_000 + n * 10 + i}` : `+49 30 ${4_100_000 + n * 10 + i}`,
  }));
  const v = Array.from({ length: vehicles }, (_, i) => ({
    id: `v${n}x${i}`,
    plate: `KX${n}Q${i}`,
    garageId: (g[(i * 7 + n) % garages] as { id: string }).id,
    readyOn: `2026-${String(1 + ((n + i) % 12)).padStart(2, "0")}-${String(1 + ((n * 3 + i) % 28)).padStart(2, "0")}`,
    seats: 1 + (i % 2),
  }));
  const d = Array.from({ length: damages }, (_, i) => ({
    id: `d${n}x${i}`,
    code: `DMG${n}R${i}`,
    vehicleId: (v[(i * 5 + n) % vehicles] as { id: string }).id,
    estimate: 100 + n * 7 + i,
    currency: "EUR",
    reportedAt: `2026-0${1 + (i % 9)}-1${i % 10}T09:30:00Z`,
    open: true,
  }));
  return { ticketId: `T-${n}`, garages: g, vehicles: v, damages: d };
}

/** A date as people write it: "4 Mar 2026". */
function written(iso: string): string {
  const [year, month, day] = iso.slice(0, 10).split("-").map(Number) as [number, number, number];
  return `${day} ${months[month - 1]} ${year}`;
}

/**
 * A history of four kinds of message over such tickets: a repair to authorise, sent to the garage of
 * the damaged vehicle (its text shows the damage and the garage, never the vehicle); a text message to a
 * garage that a vehicle is ready; an e-mail that a vehicle is coming; a notice to any garage of the ticket.
 */
export function garageHistory(count: number): string[] {
  const lines: string[] = [];
  for (let n = 0; n < count; n++) {
    const ticket = garageTicket(n, 2 + (n % 2), 2 + (n % 3), 1 + (n % 3));
    const records = { garages: ticket.garages, vehicles: ticket.vehicles, damages: ticket.damages };
    const damage = ticket.damages[n % ticket.damages.length] as GarageTicket["damages"][number];
    const vehicle = ticket.vehicles.find(
      (entry) => entry.id === damage.vehicleId,
    ) as GarageTicket["vehicles"][number];
    const garage = ticket.garages.find(
      (entry) => entry.id === vehicle.garageId,
    ) as GarageTicket["garages"][number];
    const kind = n % 4;
    const message =
      kind === 0
        ? {
            to: garage.email,
            text: `Dear ${garage.name}, please authorise the repair of damage ${damage.code}, reported on ${written(damage.reportedAt)}, and send us the invoice afterwards. Kind regards`,
          }
        : kind === 1
          ? {
              to: garage.phone,
              text: `Hello ${garage.name}, vehicle ${vehicle.plate} will be ready for collection on ${written(vehicle.readyOn)}. Please reply to confirm.`,
            }
          : kind === 2
            ? {
                to: garage.email,
                text: `Hello ${garage.name}, the vehicle ${vehicle.plate} arrives at your workshop next week for an inspection. Thank you.`,
              }
            : {
                // Any garage of the ticket: nothing in the records says which.
                to: (ticket.garages[n % ticket.garages.length] as GarageTicket["garages"][number]).email,
                text: "Our office is closed on Friday for a team event, so any parts will be delivered on Monday.",
              };
    lines.push(
      JSON.stringify({
        ticketId: ticket.ticketId,
        records,
        message,
        at: `2026-03-${String(1 + (n % 28)).padStart(2, "0")}T08:00:00.000Z`,
      }),
    );
  }
  return lines;
}
