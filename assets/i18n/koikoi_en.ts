<?xml version='1.0' encoding='utf-8'?>
<TS version="2.1" language="en" sourcelanguage="en">
    <context>
        <name>CallBanner</name>
        <message numerus="yes">
            <source>%n point(s) in all.</source>
            <translation>
                <numerusform>%n point in all.</numerusform>
                <numerusform>%n points in all.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>You win the round: %n point(s).</source>
            <translation>
                <numerusform>You win the round: %n point.</numerusform>
                <numerusform>You win the round: %n points.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{0} wins the round: %n point(s).</source>
            <translation>
                <numerusform>{0} wins the round: %n point.</numerusform>
                <numerusform>{0} wins the round: %n points.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>Cards</name>
        <message numerus="yes">
            <source>%n point(s)</source>
            <translation>
                <numerusform>%n point</numerusform>
                <numerusform>%n points</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n card(s)</source>
            <translation>
                <numerusform>%n card</numerusform>
                <numerusform>%n cards</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>GameController</name>
        <message numerus="yes">
            <source>You hold {0}: %n point(s) in all.</source>
            <translation>
                <numerusform>You hold {0}: %n point in all.</numerusform>
                <numerusform>You hold {0}: %n points in all.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>The computer holds {0}: %n point(s) in all.</source>
            <translation>
                <numerusform>The computer holds {0}: %n point in all.</numerusform>
                <numerusform>The computer holds {0}: %n points in all.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{name} holds {0}: %n point(s) in all.</source>
            <translation>
                <numerusform>{name} holds {0}: %n point in all.</numerusform>
                <numerusform>{name} holds {0}: %n points in all.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>You called 「勝負」 (shobu) and win the round: %n point(s).</source>
            <translation>
                <numerusform>You called 「勝負」 (shobu) and win the round: %n point.</numerusform>
                <numerusform>You called 「勝負」 (shobu) and win the round: %n points.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>The computer called 「勝負」 (shobu) and wins the round: %n point(s).</source>
            <translation>
                <numerusform>The computer called 「勝負」 (shobu) and wins the round: %n point.</numerusform>
                <numerusform>The computer called 「勝負」 (shobu) and wins the round: %n points.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{name} called 「勝負」 (shobu) and wins the round: %n point(s).</source>
            <translation>
                <numerusform>{name} called 「勝負」 (shobu) and wins the round: %n point.</numerusform>
                <numerusform>{name} called 「勝負」 (shobu) and wins the round: %n points.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Your dealt hand is a yaku (teyaku, 手役): %n point(s).</source>
            <translation>
                <numerusform>Your dealt hand is a yaku (teyaku, 手役): %n point.</numerusform>
                <numerusform>Your dealt hand is a yaku (teyaku, 手役): %n points.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>The computer's dealt hand is a yaku (teyaku, 手役): %n point(s).</source>
            <translation>
                <numerusform>The computer's dealt hand is a yaku (teyaku, 手役): %n point.</numerusform>
                <numerusform>The computer's dealt hand is a yaku (teyaku, 手役): %n points.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{name}'s dealt hand is a yaku (teyaku, 手役): %n point(s).</source>
            <translation>
                <numerusform>{name}'s dealt hand is a yaku (teyaku, 手役): %n point.</numerusform>
                <numerusform>{name}'s dealt hand is a yaku (teyaku, 手役): %n points.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n second(s) left to move.</source>
            <translation>
                <numerusform>%n second left to move.</numerusform>
                <numerusform>%n seconds left to move.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{0} has sent nothing of the deal for %n minute(s): you may end the match.</source>
            <translation>
                <numerusform>{0} has sent nothing of the deal for %n minute: you may end the match.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{0} has sent nothing of the deal for %n second(s): you may end the match.</source>
            <translation>
                <numerusform>{0} has sent nothing of the deal for %n second: you may end the match.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{0} has not moved for %n minute(s): you may end the match.</source>
            <translation>
                <numerusform>{0} has not moved for %n minute: you may end the match.</numerusform>
                <numerusform>{0} has not moved for %n minutes: you may end the match.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>{0} has not moved for %n second(s): you may end the match.</source>
            <translation>
                <numerusform>{0} has not moved for %n second: you may end the match.</numerusform>
                <numerusform>{0} has not moved for %n seconds: you may end the match.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>Lobby</name>
        <message numerus="yes">
            <source>No answer from {0} for %n second(s): the join stops at {1} s.</source>
            <translation>
                <numerusform>No answer from {0} for %n second: the join stops at {1} s.</numerusform>
                <numerusform>No answer from {0} for %n seconds: the join stops at {1} s.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Connected to {0}, but no answer for %n second(s): the join stops at {1} s.</source>
            <translation>
                <numerusform>Connected to {0}, but no answer for %n second: the join stops at {1} s.</numerusform>
                <numerusform>Connected to {0}, but no answer for %n seconds: the join stops at {1} s.</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>Dialling the room from port {0} while its host dials you: %n second(s) left.</source>
            <translation>
                <numerusform>Dialling the room from port {0} while its host dials you: %n second left.</numerusform>
                <numerusform>Dialling the room from port {0} while its host dials you: %n seconds left.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>Prematch</name>
        <message numerus="yes">
            <source>That counts as abandoning the coin toss after seeing the result: {0} has done so %n time(s).</source>
            <translation>
                <numerusform>That counts as abandoning the coin toss after seeing the result: {0} has done so %n time.</numerusform>
                <numerusform>That counts as abandoning the coin toss after seeing the result: {0} has done so %n times.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>PrematchPanel</name>
        <message numerus="yes">
            <source>Careful: {0} abandoned %n toss(es) after seeing the result.</source>
            <translation>
                <numerusform>Careful: {0} abandoned %n toss after seeing the result.</numerusform>
                <numerusform>Careful: {0} abandoned %n tosses after seeing the result.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>RoundResultPanel</name>
        <message numerus="yes">
            <source>Capped: only %n point(s) left to pay.</source>
            <translation>
                <numerusform>Capped: only %n point left to pay.</numerusform>
                <numerusform>Capped: only %n points left to pay.</numerusform>
            </translation>
        </message>
    </context>
    <context>
        <name>StatsPage</name>
        <message numerus="yes">
            <source>Best streak over all levels: %n match(es) won in a row</source>
            <translation>
                <numerusform>Best streak over all levels: %n match(es) won in a row</numerusform>
            </translation>
        </message>
        <message numerus="yes">
            <source>%n match(es) played with help</source>
            <translation>
                <numerusform>%n match(es) played with help</numerusform>
            </translation>
        </message>
    </context>
</TS>