export interface Receipt {
  sessionId?: string;
  userId?: string;
  deleted: Record<string, number>;
}

export function ReceiptView({ receipt }: { receipt: Receipt }) {
  return (
    <div data-testid="deletion-receipt" className="space-y-1 text-sm">
      <p className="font-medium">Deleted. Rows removed per table:</p>
      <table className="w-full text-left">
        <tbody>
          {Object.entries(receipt.deleted).map(([table, count]) => (
            <tr key={table} className="border-t border-zinc-200">
              <td className="py-1 font-mono text-xs">{table}</td>
              <td className="py-1 text-right tabular-nums" data-testid={`receipt-${table}`}>
                {count}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
