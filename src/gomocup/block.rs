//! Reading a `BOARD` (or `SWAP2BOARD`) block up to its `DONE`, one line at a time. No I/O.
//!
//! ```text
//! BOARD
//! 7,7,2
//! 8,8,1
//! DONE
//! ```
//!
//! The block reader takes each line after `BOARD`, keeps the stones and the first problem,
//! and says when the block ends: at `DONE`, or at any other command, which means the manager
//! has moved on without `DONE`. The board it describes is built only at the end, so that a
//! refused block changes nothing. It keeps at most as many stones as the board has squares
//! (any more could only be doubles or off the board): a block that never reaches `DONE`
//! holds bounded memory, whatever follows `BOARD`.

use super::board::{Board, BoardError, Stone};
use super::command::{
    BlockLine, Command, Coord, Field, ParseError, ParseErrorKind, parse_block_line,
};
use crate::io::{Input, MAX_LINE_BYTES};
use crate::rules::MAX_CELLS;

/// A block being read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Block {
    /// `BOARD`: a position, kinrow to move after `DONE`.
    Board(BoardBlock),
    /// `SWAP2BOARD`: not supported; its lines are skipped up to `DONE`.
    Swap2,
}

/// What a line means for the block.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The line belongs to the block; read on.
    More,
    /// `DONE`: the block is complete.
    Done,
    /// A command other than `DONE` (or a line that starts like one): the block was left
    /// unfinished, and the line is to be handled as a command of its own.
    Command(Result<Command, ParseError>),
}

impl Block {
    /// Reads one line of the block.
    pub fn line(&mut self, line: &str) -> Step {
        match parse_block_line(line) {
            BlockLine::Command(Ok(Command::Done)) => Step::Done,
            BlockLine::Command(other) => Step::Command(other),
            parsed => {
                if let Block::Board(board) = self {
                    board.take(parsed);
                }
                Step::More
            }
        }
    }

    /// Counts a line that could not be read at all (not UTF-8, too long).
    pub fn unreadable(&mut self, problem: Unreadable) {
        if let Block::Board(board) = self {
            board.lines += 1;
            board.fail(BlockErrorKind::Unreadable(problem));
        }
    }
}

/// The lines of a `BOARD` block read so far.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoardBlock {
    /// Lines read so far (for error messages).
    lines: usize,
    /// Stones with the number of the line that gave them.
    stones: Vec<(usize, Coord, Field)>,
    /// The most stones kept: the board's squares.
    capacity: usize,
    /// The first bad line.
    error: Option<BlockError>,
}

impl Default for BoardBlock {
    fn default() -> BoardBlock {
        BoardBlock::new(MAX_CELLS)
    }
}

impl BoardBlock {
    /// An empty block, right after `BOARD`, for a board of `squares` squares (at most
    /// [`MAX_CELLS`], the largest board kinrow plays, whatever is asked).
    pub fn new(squares: usize) -> BoardBlock {
        BoardBlock {
            lines: 0,
            stones: Vec::new(),
            capacity: squares.min(MAX_CELLS),
            error: None,
        }
    }

    fn take(&mut self, line: BlockLine) {
        self.lines += 1;
        match line {
            BlockLine::Blank | BlockLine::Command(_) => {}
            BlockLine::Stone(..) if self.stones.len() >= self.capacity => {
                self.fail(BlockErrorKind::TooManyStones(self.capacity));
            }
            BlockLine::Stone(at, field) => self.stones.push((self.lines, at, field)),
            BlockLine::Bad(e) => self.fail(BlockErrorKind::Syntax(e.kind().clone())),
        }
    }

    /// Keeps the first problem only: it is the one the manager's user should fix first.
    fn fail(&mut self, kind: BlockErrorKind) {
        let line = self.lines;
        self.error.get_or_insert(BlockError { line, kind });
    }

    /// The board the block describes, on an empty `width` x `height` board.
    ///
    /// # Errors
    ///
    /// The first line that could not be read, or else the first stone that cannot stand
    /// where it says.
    pub fn board(self, width: u32, height: u32) -> Result<Board, BlockError> {
        if let Some(error) = self.error {
            return Err(error);
        }
        let mut board = Board::new(width, height);
        for (line, at, field) in self.stones {
            let stone = match field {
                Field::Own => Stone::Own,
                Field::Opponent => Stone::Opponent,
                Field::Marked => {
                    return Err(BlockError {
                        line,
                        kind: BlockErrorKind::Marked,
                    });
                }
            };
            board.place(at, stone).map_err(|e| BlockError {
                line,
                kind: BlockErrorKind::Place(e),
            })?;
        }
        Ok(board)
    }
}

/// Input that is not a line of text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum Unreadable {
    /// The line is not valid UTF-8.
    #[error("the line is not valid UTF-8")]
    NotUtf8,
    /// The line is this many bytes long, over [`MAX_LINE_BYTES`].
    #[error("the line is {0} bytes long, over the limit of {MAX_LINE_BYTES}")]
    TooLong(usize),
}

impl Unreadable {
    /// What is wrong with `input`, if it is not a line (or the end).
    pub fn of(input: &Input) -> Option<Unreadable> {
        match input {
            Input::NotUtf8 => Some(Unreadable::NotUtf8),
            Input::TooLong(n) => Some(Unreadable::TooLong(*n)),
            Input::Line(_) | Input::End => None,
        }
    }
}

/// Why a `BOARD` block does not describe a board: the line, from 1, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("BOARD line {line}: {kind}")]
pub struct BlockError {
    /// The line of the block, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub kind: BlockErrorKind,
}

/// What is wrong with a line of a `BOARD` block.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum BlockErrorKind {
    /// Not `x,y,field`.
    #[error(transparent)]
    Syntax(ParseErrorKind),
    /// Not a line of text.
    #[error(transparent)]
    Unreadable(Unreadable),
    /// Field 3, which only continuous games and renju use.
    #[error("field 3 (a stone of a completed line in a continuous game) is not supported")]
    Marked,
    /// The stone cannot stand there.
    #[error(transparent)]
    Place(BoardError),
    /// A stone past the board's number of squares: some stone must be doubled or off the
    /// board, and the block is not kept further.
    #[error("more stones than the board's {0} squares")]
    TooManyStones(usize),
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Feeds `lines` to a new `BOARD` block; returns it and the step of the last line.
    fn read(lines: &[&str]) -> (Block, Step) {
        let mut block = Block::Board(BoardBlock::new(15 * 15));
        let mut last = Step::More;
        for line in lines {
            last = block.line(line);
        }
        (block, last)
    }

    fn board_of(block: Block) -> Result<Board, BlockError> {
        match block {
            Block::Board(b) => b.board(15, 15),
            Block::Swap2 => panic!("a BOARD block"),
        }
    }

    /// A block that never ends keeps no more stones than the board has squares, and is
    /// refused at the first stone past that.
    #[test]
    fn a_block_holds_at_most_a_board_of_stones() {
        let mut block = BoardBlock::new(3 * 2);
        for i in 0..100_000u32 {
            block.take(parse_block_line(&format!("{},{},1", i % 3, i % 2)));
        }
        assert_eq!(block.stones.len(), 6);
        assert!(block.stones.capacity() <= 8);
        assert_eq!(block.lines, 100_000);
        let e = block.board(3, 2).unwrap_err();
        assert_eq!(
            e.to_string(),
            "BOARD line 7: more stones than the board's 6 squares"
        );
        assert_eq!(BoardBlock::new(usize::MAX).capacity, 400);
    }

    #[test]
    fn stones_up_to_done() {
        let (block, last) = read(&["7,7,2", "", "8,8,1", "DONE"]);
        assert_eq!(last, Step::Done);
        let board = board_of(block).expect("a good block");
        assert_eq!(board.get(Coord { x: 7, y: 7 }), Ok(Some(Stone::Opponent)));
        assert_eq!(board.get(Coord { x: 8, y: 8 }), Ok(Some(Stone::Own)));
        assert_eq!(board.count(Stone::Own) + board.count(Stone::Opponent), 2);
        // No stones at all is an empty board.
        let (block, _) = read(&["done"]);
        assert!(board_of(block).expect("empty").is_empty());
    }

    #[test]
    fn the_first_bad_line_is_reported() {
        let (block, last) = read(&["7,7,2", "7,7", "", "nonsense", "DONE"]);
        assert_eq!(last, Step::Done);
        let e = board_of(block).expect_err("line 2 is short");
        assert_eq!(e.line, 2);
        assert!(matches!(e.kind, BlockErrorKind::Syntax(_)), "{e:?}");
        assert!(e.to_string().starts_with("BOARD line 2: "), "{e}");
    }

    #[test]
    fn a_bad_line_outranks_a_bad_stone() {
        let (block, _) = read(&["1,1,3", "x", "DONE"]);
        assert_eq!(board_of(block).expect_err("bad").line, 2);
        let (block, _) = read(&["1,1,3", "DONE"]);
        let e = board_of(block).expect_err("field 3");
        assert_eq!(
            e.to_string(),
            "BOARD line 1: field 3 (a stone of a completed line in a continuous game) is not supported"
        );
    }

    #[test]
    fn stones_must_fit_and_not_overlap() {
        let (block, _) = read(&["1,1,1", "1,1,2", "DONE"]);
        let e = board_of(block).expect_err("the same square twice");
        assert_eq!(e.line, 2);
        assert!(matches!(
            e.kind,
            BlockErrorKind::Place(BoardError::Occupied { .. })
        ));
        let (block, _) = read(&["15,0,1", "DONE"]);
        let e = board_of(block).expect_err("off a 15x15 board");
        assert!(matches!(
            e.kind,
            BlockErrorKind::Place(BoardError::OffBoard { .. })
        ));
    }

    #[test]
    fn unreadable_lines_count() {
        let mut block = Block::Board(BoardBlock::new(15 * 15));
        assert_eq!(block.line("1,1,1"), Step::More);
        block.unreadable(Unreadable::TooLong(MAX_LINE_BYTES + 1));
        let e = board_of(block).expect_err("line 2 was too long");
        assert_eq!(
            e.to_string(),
            format!(
                "BOARD line 2: the line is {} bytes long, over the limit of {MAX_LINE_BYTES}",
                MAX_LINE_BYTES + 1
            )
        );
        assert_eq!(Unreadable::of(&Input::NotUtf8), Some(Unreadable::NotUtf8));
        assert_eq!(Unreadable::of(&Input::End), None);
    }

    #[test]
    fn another_command_ends_the_block() {
        let (_, last) = read(&["1,1,1", "TURN 2,2"]);
        assert!(
            matches!(last, Step::Command(Ok(Command::Turn(_)))),
            "{last:?}"
        );
        let (_, last) = read(&["END"]);
        assert_eq!(last, Step::Command(Ok(Command::End)));
        let mut swap2 = Block::Swap2;
        assert_eq!(swap2.line("1,1,1"), Step::More);
        assert_eq!(swap2.line("garbage"), Step::More);
        assert_eq!(swap2.line("DONE"), Step::Done);
    }
}
