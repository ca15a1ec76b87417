import type ExcelJS from 'exceljs';

let loading: Promise<typeof ExcelJS> | null = null;

/**
 * ExcelJS, loaded when a workbook is first read or written: it is the heaviest package Termwise
 * loads (about a third of a second), and most starts of the app need no workbook.
 */
export function excel(): Promise<typeof ExcelJS> {
  loading ??= import('exceljs').then((module) => module.default);
  return loading;
}
